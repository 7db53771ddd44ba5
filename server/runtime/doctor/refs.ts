// The references family: links and script mentions that point at missing or unreadable files or leave the skill,
// by ../ or through a symbolic link (the validator's own reading of the body, body.missing-reference,
// body.unreadable-reference and body.path-escape, reused), files nothing mentions, and a long body that links
// no reference files.
import { FORMAT_LIMITS } from "../../domain/vocabulary";
import { finding } from "./checks";
import { readText, type SkillContext } from "./context";
import type { Finding } from "./types";

/** Files a person expects beside a skill without a link: licences, readmes, eval sets, agent manifests. */
const EXPECTED = /(?:^|\/)(?:LICEN[CS]E|COPYING|NOTICE|README|CHANGELOG|CONTRIBUTING|AUTHORS|SECURITY)(?:\.[\w.]+)?$|(?:^|\/)[^/]*[-_](?:OFL|LICEN[CS]E)\.txt$|^(?:evals|agents|tests?|__tests__)\/|^(?:metadata|package|package-lock|pyproject|requirements|tsconfig)\.(?:json|toml|txt)$|\.(?:pyc|lock|map)$/i;
const TEXT = /\.(?:md|mdx|txt|py|sh|bash|js|mjs|cjs|ts|tsx|jsx|json|ya?ml|toml|html|xml|csv)$/i;
const MAX_UNREFERENCED = 20;

export function checkRefs(ctx: SkillContext): Finding[] {
  const out: Finding[] = [];
  for (const d of ctx.check.diagnostics) {
    // An unreadable file is missing for an agent too; the message says which it is.
    if (d.code === "body.missing-reference" || d.code === "body.unreadable-reference") out.push(finding("refs.missing", d.message, "SKILL.md", d.line, lineText(ctx, d.line)));
    else if (d.code === "body.path-escape") out.push(finding("refs.outside", d.message, "SKILL.md", d.line, lineText(ctx, d.line)));
  }
  const bodyLines = ctx.body === "" ? 0 : ctx.body.split("\n").length - (ctx.body.endsWith("\n") ? 1 : 0);
  const mentionsAFile = ctx.files.some((f) => ctx.body.includes(f) || ctx.body.includes(f.slice(f.lastIndexOf("/") + 1)));
  if (bodyLines > FORMAT_LIMITS.bodyLines && !mentionsAFile) {
    out.push(finding("refs.long-body", `the body has ${bodyLines} lines (over ${FORMAT_LIMITS.bodyLines}) and links no reference files`, "SKILL.md", ctx.bodyStartLine + FORMAT_LIMITS.bodyLines));
  }
  out.push(...unreferenced(ctx));
  return out;
}

function lineText(ctx: SkillContext, line: number): string {
  if (line >= ctx.bodyStartLine) return ctx.body.split("\n")[line - ctx.bodyStartLine] ?? "";
  return ctx.frontmatterLines[line - 1] ?? "";
}

/** A file counts as referenced when SKILL.md or another text file of the skill names it, its file name, or a folder holding it. */
function unreferenced(ctx: SkillContext): Finding[] {
  const candidates = ctx.files.filter((f) => !EXPECTED.test(f));
  if (candidates.length === 0) return [];
  const texts = new Map<string, string>();
  for (const f of ctx.files) if (TEXT.test(f)) texts.set(f, readText(ctx.dir, f) ?? "");
  const out: Finding[] = [];
  for (const f of candidates) {
    // Each file is looked for in every text file: files times texts, so this is where a big skill spends its time.
    if (ctx.budget.spent("the search for files nothing mentions")) break;
    const base = f.slice(f.lastIndexOf("/") + 1);
    const stem = base.replace(/\.[^.]+$/, "");
    const folders: string[] = [];
    for (let i = f.indexOf("/"); i >= 0; i = f.indexOf("/", i + 1)) folders.push(f.slice(0, i + 1));
    const mentions = (t: string) => t.includes(f) || t.includes(base) || folders.some((d) => mentionsFolder(t, d)) || (stem.length >= 6 && t.includes(stem));
    if (mentions(ctx.body) || ctx.frontmatterLines.some((l) => l.includes(base))) continue;
    let found = false;
    for (const [other, t] of texts) {
      if (other !== f && mentions(t)) {
        found = true;
        break;
      }
    }
    if (found) continue;
    out.push(finding("refs.unreferenced", `"${f}" is in the skill but nothing mentions it`, f, 1));
    if (out.length >= MAX_UNREFERENCED) break;
  }
  return out;
}

/** "rules/" as a folder ("read the files in rules/"), not as the start of one file's path ("rules/a.md"). */
function mentionsFolder(text: string, folder: string): boolean {
  for (let i = text.indexOf(folder); i >= 0; i = text.indexOf(folder, i + 1)) {
    if (!/[\w.*{<-]/.test(text[i + folder.length] ?? "")) return true;
  }
  return false;
}
