// Resolution of paths written inside a skill (body links, hook scripts) relative to the skill folder,
// without touching the disk: a path either stays inside the folder or it does not.

export type RelativePath =
  | { ok: true; path: string }
  | { ok: false; reason: "absolute" | "escape" | "url" | "empty" };

const SCHEME = /^([a-z][a-z0-9+.-]*):/i;
const WINDOWS_DRIVE = /^[a-z]:[\\/]/i;
/** Names joined by single slashes, none of them "." or "..", no spaces, colons or backslashes. */
const PLAIN_RELATIVE = /^[\w-][\w.-]*(?:\/[\w-][\w.-]*)*$/;

/**
 * Normalises `written` (a path or link target from the skill) to a folder-relative POSIX path.
 * Backslashes count as separators (a Windows author's `..\x` escapes too); `file:` URLs and absolute paths
 * are refused, other URLs are reported as "url" so callers can ignore them.
 */
export function resolveInsideSkill(written: string): RelativePath {
  // The usual reference (references/guide.md) is already what the steps below would make of it.
  if (PLAIN_RELATIVE.test(written)) return { ok: true, path: written };
  let p = written.trim();
  if (!p) return { ok: false, reason: "empty" };
  if (WINDOWS_DRIVE.test(p)) return { ok: false, reason: "absolute" };
  const scheme = SCHEME.exec(p);
  if (scheme) return { ok: false, reason: scheme[1]!.toLowerCase() === "file" ? "absolute" : "url" };
  p = p.replace(/\\/g, "/");
  if (p.startsWith("/")) return { ok: false, reason: "absolute" };
  const out: string[] = [];
  for (const segment of p.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (out.length === 0) return { ok: false, reason: "escape" };
      out.pop();
    } else out.push(segment);
  }
  return out.length === 0 ? { ok: false, reason: "empty" } : { ok: true, path: out.join("/") };
}
