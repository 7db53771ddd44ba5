// read_file: a text file of an active skill (relative to the top skill's folder) or of the scratch.
// Scripts are refused (run them instead); binary files are described, not dumped; output is capped.
import { z } from "zod";
import { SCRIPT_FOLDERS_TEXT } from "../../../domain/skill-protocol";
import { displayPath, lexicalPath, readTextCapped, resolveForRead } from "../paths";
import type { ToolDefinition } from "../types";

export const DEFAULT_MAX_READ_BYTES = 256 * 1024;

const input = z.object({
  path: z.string().min(1).describe("File path, relative to the active skill's folder (its base path), or absolute inside it"),
  offset: z.number().int().min(1).optional().describe("First line to return (1-based)"),
  limit: z.number().int().min(1).optional().describe("Number of lines to return"),
});

export const readFileTool: ToolDefinition<z.infer<typeof input>> = {
  name: "read_file",
  description:
    "Read a text file from the active skill's folder (paths relative to its base path) or the session scratch folder. " +
    `Scripts under ${SCRIPT_FOLDERS_TEXT} cannot be read: run them with run_script.`,
  inputSchema: input,
  subject: (i, ctx) => ({ path: displayPath(lexicalPath(ctx, i.path), ctx) }),
  run(i, ctx) {
    const r = resolveForRead(ctx, i.path);
    const res = readTextCapped(r.real, r.display, ctx.maxReadBytes ?? DEFAULT_MAX_READ_BYTES, i.offset, i.limit);
    return {
      output: res.text,
      data: { path: r.display, size: res.size, binary: res.binary, truncated: res.truncated, ...(res.lines ? { lines: res.lines } : {}) },
    };
  },
};
