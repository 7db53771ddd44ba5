// The scripts family: every file under scripts/ scanned by its language (extension, else shebang).
import { readText, type SkillContext } from "./context";
import { scanCode } from "./scripts-code";
import { scanShell } from "./scripts-shell";
import type { Finding } from "./types";

export type ScriptLanguage = "shell" | "python" | "js";

export function scriptLanguage(rel: string, text: string): ScriptLanguage | null {
  const ext = /\.([A-Za-z0-9]+)$/.exec(rel)?.[1]?.toLowerCase();
  if (ext === "sh" || ext === "bash" || ext === "zsh") return "shell";
  if (ext === "py") return "python";
  if (ext && ["js", "mjs", "cjs", "ts", "mts", "cts", "jsx", "tsx"].includes(ext)) return "js";
  if (ext) return null;
  const shebang = /^#!\s*(\S+)(?:\s+(\S+))?/.exec(text);
  const interp = (shebang?.[1]?.endsWith("/env") ? shebang[2] : shebang?.[1])?.replace(/^.*\//, "") ?? "";
  if (/^(?:ba|z|da|k)?sh$/.test(interp)) return "shell";
  if (/^python/.test(interp)) return "python";
  if (/^(?:node|deno|bun|tsx|ts-node)$/.test(interp)) return "js";
  return null;
}

export function scriptFiles(ctx: SkillContext): string[] {
  return ctx.files.filter((f) => f.startsWith("scripts/"));
}

export function checkScripts(ctx: SkillContext): Finding[] {
  const out: Finding[] = [];
  for (const rel of scriptFiles(ctx)) {
    if (ctx.budget.spent(rel)) break;
    const text = readText(ctx.dir, rel);
    if (text === null || text.includes("\u0000")) continue;
    const lang = scriptLanguage(rel, text);
    if (lang === "shell") out.push(...scanShell(text, rel, ctx.budget));
    else if (lang) out.push(...scanCode(text, rel, lang, ctx.budget));
  }
  return out;
}
