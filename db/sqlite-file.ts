// A SQLite file someone pointed a command at (a data home's console.db), checked before SQLite opens it and its
// failures said in words: SQLite's open() of a named pipe waits for a writer forever, and its errors ("file is not a
// database") name no file and suggest nothing. Only node:fs here: the CLI's policy reader loads this on every
// listing of a data home that has a console.db.
import fs from "node:fs";

/** What sits at `file` when it is there but no regular file ("a named pipe", "a folder"...); else null. */
export function notARegularFile(file: string): string | null {
  let st: fs.Stats;
  try {
    st = fs.statSync(file);
  } catch {
    return null; // missing or unreachable: the open says which
  }
  if (st.isFile()) return null;
  if (st.isDirectory()) return "a folder";
  if (st.isFIFO()) return "a named pipe";
  if (st.isSocket()) return "a socket";
  if (st.isCharacterDevice() || st.isBlockDevice()) return "a device";
  return "a special file";
}

/** Why opening or reading a SQLite file failed, and what to do, as the end of one line after its path. */
export function sqliteProblem(e: unknown): string {
  const code = String((e as { code?: unknown })?.code ?? "");
  const message = e instanceof Error ? e.message.split("\n")[0]! : String(e);
  if (code === "SQLITE_NOTADB" || code.startsWith("SQLITE_CORRUPT")) return `not a usable database (${message}): restore it from a backup, or move it away and start the console to make a new one`;
  // A WAL database read without its -shm file, in a folder this user may not create it in.
  if (code === "SQLITE_READONLY_DIRECTORY") return `cannot be read by this user: SQLite must create its -shm file beside it and the folder is not writable (run the command as the user the console runs as)`;
  if (code.startsWith("SQLITE_READONLY") || code === "EACCES" || code === "EPERM") return `this user may not ${code.startsWith("SQLITE_READONLY") ? "write" : "open"} it (${message}): run the command as the user the console runs as`;
  if (code.startsWith("SQLITE_CANTOPEN")) return `cannot be opened (${message}): this user must be able to read it and write its folder`;
  if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED")) return `is busy in another process (${message}): try again`;
  if (/^no such (table|column)/.test(message)) return `holds no console data of this version (${message}): start the console once with this data home`;
  return message;
}
