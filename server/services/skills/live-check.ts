// Live diagnostics and the side panel for unsaved text: the runtime's validator (same codes and messages as the
// CLI), the stage-1 listing entry exactly as an agent sees it, token/character costs, and where body links go.
import fs from "node:fs";
import path from "node:path";
import { checkSkillSource, estimateTokens, resolveInsideSkill, toPrompt, type Diagnostic } from "../../runtime/skill";
import type { FileLookup } from "../../runtime/skill/types";
import { diagnosticsUnder, isInside, type RegistryPolicy } from "../../runtime/registry";
import type { SkillsContext } from "./context";
import { existingSkillDir } from "./edit";
import type { SkillRef } from "./location";

export interface LinkInfo {
  /** The link target as written. */
  href: string;
  /** inside: resolves to a file of the skill; missing: inside but absent; outside: leaves the skill; url: a web link. */
  kind: "inside" | "missing" | "outside" | "url";
  /** Folder-relative path for inside/missing links. */
  path?: string;
}

export interface LiveCheck {
  diagnostics: Diagnostic[];
  loadable: boolean;
  valid: boolean;
  name: string | null;
  /** The <available_skills> block with only this skill, as the agent sees it in stage 1. */
  listing: string;
  body: string;
  bodyStartLine: number;
  stage1: { chars: number; tokens: number };
  stage2: { chars: number; tokens: number };
  links: LinkInfo[];
}

const LINK_RE = /!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;

export function linksOf(body: string, exists: FileLookup): LinkInfo[] {
  const out = new Map<string, LinkInfo>();
  for (const m of body.matchAll(LINK_RE)) {
    const href = m[1]!;
    if (out.has(href) || href.startsWith("#")) continue;
    const target = href.split("#")[0]!.split("?")[0]!;
    let decoded = target;
    try {
      decoded = decodeURI(target);
    } catch {
      // keep the raw target: a malformed %-escape is still a path to judge
    }
    const r = resolveInsideSkill(decoded);
    if (!r.ok) {
      out.set(href, { href, kind: r.reason === "url" ? "url" : "outside" });
      continue;
    }
    const found = exists(r.path);
    out.set(href, found === "outside" ? { href, kind: "outside" } : { href, kind: found === true ? "inside" : "missing", path: r.path });
  }
  return [...out.values()];
}

/** `policy`: the stored policy, whose allowances (validity.ts) the diagnostics follow, as every other screen's do. */
export function liveCheck(ctx: SkillsContext, ref: SkillRef, text: string, policy?: Pick<RegistryPolicy, "allowReservedNames">): LiveCheck {
  const { dir } = existingSkillDir(ctx, ref, "read");
  let realDir = dir;
  try {
    realDir = fs.realpathSync(dir);
  } catch {
    // keep dir
  }
  // The same three answers as a check on disk: a link leaving the skill is "outside" (body.path-escape), a folder
  // that denies access "unreadable", so the editor never calls either merely missing.
  const exists = (rel: string): boolean | "outside" | "unreadable" => {
    try {
      return isInside(realDir, fs.realpathSync(path.join(dir, rel))) || "outside";
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      return code === "EACCES" || code === "EPERM" ? "unreadable" : false;
    }
  };
  const check = checkSkillSource(text, { dir, rules: "omniforge", fileExists: exists });
  const listing = check.loadable ? toPrompt([check]) : "";
  // Stage 1 is what this skill adds to the listing: its <skill> element (not the wrapper shared by all skills).
  const entry = listing.split("\n").slice(1, -1).join("\n");
  const body = check.body ?? "";
  const diagnostics = diagnosticsUnder(check.diagnostics, policy);
  return {
    diagnostics,
    loadable: check.loadable,
    valid: check.loadable && !diagnostics.some((d) => d.severity === "error"),
    name: check.properties?.name ?? null,
    listing,
    body,
    bodyStartLine: check.bodyStartLine,
    stage1: { chars: entry.length, tokens: estimateTokens(entry) },
    stage2: { chars: body.length, tokens: estimateTokens(body) },
    links: linksOf(body, exists),
  };
}
