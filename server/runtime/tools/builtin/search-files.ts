// search_files: lines matching a regular expression in the text files of an active skill or the scratch
// (Claude Code's Grep). Files under a skill's scripts/ are skipped, since their text is not for reading,
// and the model is told how many were skipped.
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { displayPath, isInside, lexicalPath, looksBinary, readRoots, resolveForRead, scriptOwner } from "../paths";
import { matchesPathGlob } from "../patterns";
import type { ToolDefinition } from "../types";
import { count } from "../../../domain/plural";

const MAX_MATCHES = 200;
const MAX_FILES = 2000;
const MAX_FILE_BYTES = 2 * 1024 * 1024;

const input = z.object({
  pattern: z.string().min(1).max(1000).describe("Regular expression (JavaScript syntax)"),
  path: z.string().optional().describe("Folder or file to search, relative to the active skill's folder (default: the skill folder)"),
  glob: z.string().optional().describe('Only files whose relative path matches, e.g. "**/*.md"'),
  ignore_case: z.boolean().optional(),
});

export const searchFilesTool: ToolDefinition<z.infer<typeof input>> = {
  name: "search_files",
  description: "Search text files of the active skill's folder or the scratch folder for a regular expression; returns path:line: text.",
  inputSchema: input,
  subject: (i, ctx) => ({ path: displayPath(lexicalPath(ctx, i.path ?? "."), ctx) }),
  run(i, ctx) {
    let re: RegExp;
    try {
      re = new RegExp(i.pattern, i.ignore_case ? "i" : "");
    } catch (e) {
      return { ok: false, output: `Invalid regular expression: ${(e as Error).message}`, error: "invalid_pattern" };
    }
    // A file given directly goes through the same script check as read_file.
    let start = resolveForRead(ctx, i.path ?? ".", { allowScripts: true });
    if (!fs.statSync(start.real).isDirectory()) start = resolveForRead(ctx, i.path ?? ".");
    const roots = readRoots(ctx);
    const matches: string[] = [];
    let skippedScripts = 0;
    let files = 0;
    const searchFile = (real: string, shown: string, lexical: string) => {
      if (scriptOwner(real, ctx) || scriptOwner(lexical, ctx)) return void skippedScripts++;
      const st = fs.statSync(real);
      if (st.size > MAX_FILE_BYTES) return;
      const buf = fs.readFileSync(real);
      if (looksBinary(buf.subarray(0, 8192))) return;
      files++;
      const lines = buf.toString("utf8").split("\n");
      for (let n = 0; n < lines.length && matches.length < MAX_MATCHES; n++) {
        if (re.test(lines[n]!)) matches.push(`${shown}:${n + 1}: ${lines[n]!.slice(0, 300)}`);
      }
    };
    const walk = (dir: string, rel: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
        if (matches.length >= MAX_MATCHES || files >= MAX_FILES) return;
        const full = path.join(dir, e.name);
        const relPath = rel ? `${rel}/${e.name}` : e.name;
        if (e.isDirectory()) {
          if (e.name === ".git" || e.name === "node_modules") continue;
          walk(full, relPath);
        } else if (e.isFile() || e.isSymbolicLink()) {
          if (i.glob && !matchesPathGlob(relPath, i.glob)) continue;
          let real: string;
          try {
            real = fs.realpathSync(full);
          } catch {
            continue;
          }
          if (!roots.some((r) => isInside(r.real, real)) || !fs.statSync(real).isFile()) continue; // links out are not followed
          searchFile(real, displayPath(full, ctx), full);
        }
      }
    };
    if (fs.statSync(start.real).isDirectory()) walk(start.real, "");
    else searchFile(start.real, start.display, start.abs);
    const out = matches.length ? matches.join("\n") : `No match for /${i.pattern}/`;
    const notes = [
      matches.length >= MAX_MATCHES ? `[... stopped at ${MAX_MATCHES} matches]` : "",
      skippedScripts ? `[${count(skippedScripts, "file")} under scripts/ skipped: scripts are run with run_script, not read]` : "",
    ].filter(Boolean);
    return { output: [out, ...notes].join("\n"), data: { matches: matches.length, files, skippedScripts } };
  },
};
