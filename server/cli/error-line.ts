// An error as the one line a person reads after "omniforge <command>: ". Node's file-system errors read
// "EACCES: permission denied, mkdir '/x'"; written here as "cannot mkdir /x: permission denied (EACCES)", the
// thing attempted first. Only printable.ts here: the light commands load this too.
import { printable } from "./printable";

/** The one-line message of `e`: a file-system error as what could not be done and why, control characters shown. */
export function errorLine(e: unknown): string {
  const err = e as (Partial<NodeJS.ErrnoException> & { dest?: string }) | null | undefined;
  const message = typeof err?.message === "string" ? err.message : String(e);
  const fsError = /^([A-Z][A-Z0-9_]+): ([^,]+), (\w+)/.exec(message);
  if (fsError && err?.code === fsError[1] && err?.syscall && typeof err.path === "string") {
    const target = err.dest ? `${err.path} to ${err.dest}` : err.path;
    return printable(`cannot ${err.syscall} ${target}: ${fsError[2]} (${err.code})`);
  }
  // A message of several lines (a library's, with its details) is joined into one.
  return printable(message.split("\n").map((l) => l.trim()).filter(Boolean).join(" ") || "unexpected error");
}
