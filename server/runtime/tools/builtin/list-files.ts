// list_files: the files of a folder inside an active skill or the scratch (Claude Code's Glob/LS).
// Names only, never contents, so scripts/ is listed too: the model needs the names to run them.
// Symlinks are shown, not followed.
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { displayPath, isInside, lexicalPath, readRoots, resolveForRead } from "../paths";
import { matchesPathGlob } from "../patterns";
import type { ToolContext, ToolDefinition } from "../types";

const MAX_ENTRIES = 500;
const MAX_DEPTH = 8;

const input = z.object({
  path: z.string().optional().describe("Folder to list, relative to the active skill's folder (default: the skill folder)"),
  pattern: z.string().optional().describe('Glob over paths relative to that folder, e.g. "**/*.md" (implies recursive)'),
  recursive: z.boolean().optional(),
});

function linkNote(full: string, ctx: ToolContext): string {
  try {
    const real = fs.realpathSync(full);
    return readRoots(ctx).some((r) => isInside(r.real, real)) ? "" : " (points outside the allowed folders)";
  } catch {
    return " (broken link)";
  }
}

export const listFilesTool: ToolDefinition<z.infer<typeof input>> = {
  name: "list_files",
  description:
    "List files in the active skill's folder or the session scratch folder. Optional glob pattern (e.g. **/*.md) matches paths relative to the listed folder.",
  inputSchema: input,
  subject: (i, ctx) => ({ path: displayPath(lexicalPath(ctx, i.path ?? "."), ctx) }),
  run(i, ctx) {
    const r = resolveForRead(ctx, i.path ?? ".", { allowScripts: true });
    if (!fs.statSync(r.real).isDirectory()) throw new Error(`${r.display} is a file, not a folder; use read_file`);
    const recursive = i.recursive === true || i.pattern !== undefined;
    const lines: string[] = [];
    let more = 0;
    const walk = (dir: string, rel: string, depth: number) => {
      const entries = fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
      for (const e of entries) {
        const relPath = rel ? `${rel}/${e.name}` : e.name;
        const full = path.join(dir, e.name);
        const show = !i.pattern || matchesPathGlob(relPath, i.pattern);
        if (show) {
          if (lines.length >= MAX_ENTRIES) {
            more++;
          } else if (e.isSymbolicLink()) {
            lines.push(`${relPath} -> ${fs.readlinkSync(full)}${linkNote(full, ctx)}`);
          } else if (e.isDirectory()) {
            lines.push(`${relPath}/`);
          } else {
            lines.push(`${relPath} (${fs.statSync(full).size} bytes)`);
          }
        }
        if (recursive && e.isDirectory() && !e.isSymbolicLink() && depth < MAX_DEPTH) walk(full, relPath, depth + 1);
      }
    };
    walk(r.real, "", 0);
    const header = `${r.display === "." ? "Skill folder" : r.display}:`;
    const body = lines.length ? lines.join("\n") : i.pattern ? `(nothing matches ${i.pattern})` : "(empty)";
    return { output: `${header}\n${body}${more ? `\n[... ${more} more entries not shown]` : ""}`, data: { path: r.display, entries: lines.length, more } };
  },
};
