// write_file: writes or edits a file in the session scratch folder, and nowhere else (skill folders are
// read-only to agents). Claude Code's Write and Edit both map here: `content` writes a whole file,
// `old_string`/`new_string` replaces text in an existing one.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { giveToScratchOwner, PathError, resolveForWrite } from "../paths";
import type { ToolDefinition } from "../types";

const MAX_WRITE_BYTES = 5 * 1024 * 1024;

const input = z.object({
  path: z.string().min(1).describe("Path inside the session scratch folder (relative paths start there)"),
  content: z.string().optional().describe("Whole new content of the file"),
  old_string: z.string().optional().describe("Edit mode: exact text to replace"),
  new_string: z.string().optional().describe("Edit mode: replacement text"),
  replace_all: z.boolean().optional().describe("Edit mode: replace every occurrence instead of exactly one"),
});

/** Temp file + rename: a reader never sees half a file, and a symlink at the target is replaced, not followed. */
function atomicWrite(target: string, dir: string, text: string): void {
  const tmp = path.join(dir, `.${path.basename(target)}.${crypto.randomBytes(6).toString("hex")}.tmp`);
  fs.writeFileSync(tmp, text, { flag: "wx" });
  try {
    fs.renameSync(tmp, target);
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw e;
  }
}

export const writeFileTool: ToolDefinition<z.infer<typeof input>> = {
  name: "write_file",
  description:
    "Write a file in the session scratch folder (the only writable place). Give `content` for the whole file, " +
    "or `old_string` and `new_string` to edit an existing one.",
  inputSchema: input,
  subject: (i) => ({ path: i.path }),
  run(i, ctx) {
    const editing = i.old_string !== undefined || i.new_string !== undefined;
    if (editing && i.content !== undefined) throw new PathError("Give either content (write) or old_string/new_string (edit), not both");
    if (!editing && i.content === undefined) throw new PathError("Give content to write, or old_string and new_string to edit");
    const w = resolveForWrite(ctx, i.path);
    let text: string;
    if (editing) {
      if (i.old_string === undefined || i.new_string === undefined) throw new PathError("An edit needs both old_string and new_string");
      if (i.old_string === "") throw new PathError("old_string must not be empty");
      let st: fs.Stats;
      try {
        st = fs.lstatSync(w.target);
      } catch {
        throw new PathError(`${w.display} does not exist in the scratch folder; write it with content first`);
      }
      if (!st.isFile()) throw new PathError(`${w.display} is not a regular file (symlinks are not followed)`);
      const before = fs.readFileSync(w.target, "utf8");
      const count = before.split(i.old_string).length - 1;
      if (count === 0) throw new PathError(`old_string was not found in ${w.display}`);
      if (count > 1 && !i.replace_all) throw new PathError(`old_string occurs ${count} times in ${w.display}; give more context or set replace_all`);
      text = i.replace_all ? before.split(i.old_string).join(i.new_string) : before.replace(i.old_string, () => i.new_string!);
    } else text = i.content!;
    const bytes = Buffer.byteLength(text);
    if (bytes > MAX_WRITE_BYTES) throw new PathError(`The file would be ${bytes} bytes; the limit is ${MAX_WRITE_BYTES}`);
    atomicWrite(w.target, w.realParent, text);
    giveToScratchOwner(w.target, w.scratchReal);
    return { output: `${editing ? "Edited" : "Wrote"} ${w.display} (${bytes} bytes) in the scratch folder`, data: { path: w.display, bytes } };
  },
};
