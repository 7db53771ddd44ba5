// `omniforge skill search "<request>"`: the skills that serve a request, ranked by the one ranking the agent
// uses, over the same layers and resolution as `skill list` (policy, scope, precedence), with the listing the
// agent would get for it under a budget. `--queries FILE` answers a batch (JSON Lines {"id","request"});
// `--json` prints one JSON object per request per line. `--skills DIR` adds a plain folder of skill folders
// (a catalog checked out somewhere) to the project layer.
import path from "node:path";
import { CONTEXT_FLAGS, parseCommand, stringFlags, wholeNumber } from "../args";
import type { CliIO } from "../io";
import { contextFor } from "../policy-source";
import { catalogConfigFrom } from "./skill-list";
import { router, type Routed } from "../../runtime/agent/routing";
import { listingBudgetFor } from "../../runtime/agent/listing";
import { DISCLOSURE_MODES, SETTINGS_FILE_MAX_BYTES, type DisclosureMode } from "../../domain/vocabulary";
import { FileReadError, readRegularTextFile } from "../../runtime/read-file";
import type { LayerConfig } from "../../runtime/registry/layers";
import { resolveAll } from "../../runtime/registry/resolve";
import { SkillIndex } from "../../runtime/registry/skill-index";
import type { ResolveContext } from "../../runtime/registry/types";
import { findSkillDirs } from "../../runtime/skill/index";
import { printable } from "../printable";
import { routingFromSettings, type RoutingExtras } from "../../runtime/agent/routing-settings";

export const summary = "Find the skills that serve a request (the agent's own ranking), with the listing it would get";

const USAGE = `usage: omniforge skill search "<request>" [--limit K] [--budget CHARS] [--json]
       omniforge skill search --queries FILE [--limit K] [--budget CHARS] [--json]
  --queries  JSON Lines, one {"id": "...", "request": "..."} per line
  --limit    results per request (default 5)
  --budget   listing budget in characters (default ${listingBudgetFor(200_000)}, a 200k-token model's)
  --mode     tool (default), prompt or orchestrated: the listing format
  --skills   a folder of skill folders (e.g. a catalog checkout), read as part of the project layer; repeatable
  --home, --project, --user, --environment (--env), --agent, --tenant, --policy FILE.json: as for \`omniforge skill list\`
  --json     one line per request: {"id","request","results":[{"name","layer","plugin","dir","score","why"}],
             "abstain":bool,"listing":{"chars","withDescription":[dirs],"nameOnly":[dirs],"omitted":n}}
`;

interface Query {
  id: string;
  request: string;
}

/** The queries of a JSON Lines file, or a message naming the first bad line. */
export function readQueries(text: string): Query[] | string {
  const out: Query[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!.trim();
    if (!l) continue;
    let v: unknown;
    try {
      v = JSON.parse(l);
    } catch {
      return `line ${i + 1} is not JSON`;
    }
    const o = v as { id?: unknown; request?: unknown };
    if (!o || typeof o !== "object" || typeof o.request !== "string" || !o.request.trim()) return `line ${i + 1} has no "request" string`;
    if (o.id !== undefined && typeof o.id !== "string" && typeof o.id !== "number") return `line ${i + 1}: "id" must be a string or number`;
    out.push({ id: o.id === undefined ? String(out.length + 1) : String(o.id), request: o.request });
  }
  return out;
}

function positiveInt(v: string | undefined, name: string, dflt: number): number | string {
  if (v === undefined) return dflt;
  return wholeNumber(v, 1) ?? `--${name} must be a positive whole number, not "${v}"`;
}

function jsonLine(q: Query, r: Routed, limit: number): string {
  const dirOf = new Map([...r.byId.values()].map((e) => [e.name, e.dir]));
  return JSON.stringify({
    id: q.id,
    request: q.request,
    results: r.ranked.hits.slice(0, limit).map((h) => {
      const e = r.byId.get(h.id)!;
      return { name: e.name, layer: e.layer, plugin: e.plugin ?? null, dir: e.dir, score: h.score, why: h.why };
    }),
    abstain: r.ranked.abstain,
    listing: {
      chars: r.listing.chars,
      withDescription: r.listing.described.map((n) => dirOf.get(n)!),
      nameOnly: r.listing.nameOnly.map((n) => dirOf.get(n)!),
      omitted: r.listing.omitted,
    },
  });
}

function textBlock(q: Query, r: Routed, limit: number, multi: boolean): string {
  const out: string[] = [];
  if (multi) out.push(`# ${q.id}: ${q.request}`);
  const hits = r.ranked.hits.slice(0, limit);
  if (r.ranked.abstain) out.push(`no skill serves this request: ${r.ranked.reason}${hits.length ? "; the closest:" : ""}`);
  hits.forEach((h, i) => {
    const e = r.byId.get(h.id)!;
    out.push(`${i + 1}. ${e.name}  (${e.plugin ? `plugin:${e.plugin}` : e.layer}, score ${h.score})  ${e.dir}`);
    out.push(`   ${h.why}`);
  });
  const l = r.listing;
  out.push(
    `listing (${l.chars} of ${l.budgetChars} characters): ${l.described.length} with description, ${l.nameOnly.length} by name, ${l.omitted} not listed. ${l.why}`,
  );
  // Names, paths and requests come from files and users: each line is written out inert (no terminal controls).
  return out.map(printable).join("\n") + "\n";
}

export async function run(args: string[], io: CliIO): Promise<number> {
  const cmd = parseCommand("skill search", USAGE, args, {
    ...CONTEXT_FLAGS,
    skills: { type: "string", multiple: true },
    ...stringFlags("policy", "queries", "limit", "budget", "mode"),
  }, io);
  if (typeof cmd === "number") return cmd;
  const { values, positionals, fail } = cmd;
  const limit = positiveInt(values.limit, "limit", 5);
  const budget = positiveInt(values.budget, "budget", listingBudgetFor(200_000));
  if (typeof limit === "string") return fail(limit);
  if (typeof budget === "string") return fail(budget);
  const mode = (values.mode ?? "tool") as DisclosureMode;
  if (!DISCLOSURE_MODES.includes(mode)) return fail(`--mode must be one of ${DISCLOSURE_MODES.join(", ")}, not "${values.mode}"`);

  let queries: Query[];
  if (values.queries !== undefined) {
    if (positionals.length) return fail("give a request or --queries FILE, not both");
    let text: string;
    try {
      text = readRegularTextFile(path.resolve(io.cwd, values.queries), SETTINGS_FILE_MAX_BYTES);
    } catch (e) {
      return fail(`cannot read ${values.queries}: ${e instanceof FileReadError ? e.message : (e as Error).message}`);
    }
    const q = readQueries(text);
    if (typeof q === "string") return fail(`${values.queries}: ${q}`);
    queries = q;
  } else {
    const request = positionals.join(" ").trim();
    if (!request) return fail("give a request, e.g. omniforge skill search \"fill a PDF form\"");
    queries = [{ id: "1", request }];
  }

  let config: LayerConfig;
  let ctx: ResolveContext;
  try {
    config = catalogConfigFrom(values, io);
    ({ ctx } = await contextFor(config, values, io.cwd, io.env));
  } catch (e) {
    return fail(e as Error);
  }

  // What routing needs of each SKILL.md is its frontmatter (the search reads bodies itself): the body and file
  // checks of a full scan were a sixth of a batch's time over a large catalog. Script digests only when approvals
  // are required, as for `skill list`.
  const needsApprovals = !!(ctx.policy?.requireApprovalForScripts || ctx.policy?.requireApprovalForProject);
  const index = SkillIndex.build(config, { entries: { checks: "frontmatter", scriptDigests: needsApprovals } });
  const entries = resolveAll(index, ctx).skills.filter((e) => e.loadable);
  if (!entries.length) {
    const hint = findSkillDirs(config.projectRoot, { maxDepth: 2 }).length ? `; ${config.projectRoot} holds skill folders itself: pass it with --skills` : "";
    io.err(printable(`omniforge skill search: no skills found (home ${config.home}, project ${config.projectRoot})${hint}`) + "\n");
  }
  let routing: RoutingExtras;
  try {
    routing = await routingFromSettings(io.env, config.home);
  } catch (e) {
    return fail(e as Error);
  }
  const { route } = router({ index, context: ctx }, entries, undefined, routing.meaning);
  const multi = queries.length > 1 || values.queries !== undefined;
  for (const q of queries) {
    const r = await route(q.request, { mode, budgetChars: budget });
    for (const n of r.notes) io.err(printable(`omniforge skill search: ${n}`) + "\n");
    io.out(values.json ? jsonLine(q, r, limit) + "\n" : textBlock(q, r, limit, multi) + (multi ? "\n" : ""));
  }
  return 0;
}
