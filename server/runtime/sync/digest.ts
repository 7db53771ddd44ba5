// One digest for a whole skill folder (every file, its path and whether it is executable), so the console and
// `omniforge sync` agree on "this exact skill": a changed script changes it, not only a changed SKILL.md.
import { createHash } from "node:crypto";

export interface DigestFile {
  /** "/"-separated, relative to the skill folder. */
  path: string;
  data: Uint8Array;
  executable: boolean;
}

export function folderDigest(files: DigestFile[]): string {
  const h = createHash("sha256");
  for (const f of [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    h.update(`${f.path}\0${f.executable ? "x" : "-"}\0${createHash("sha256").update(f.data).digest("hex")}\n`);
  }
  return "sha256:" + h.digest("hex");
}
