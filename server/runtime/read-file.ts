// Reading a file a person named (a config file, an archive to install, a list of queries) without letting what
// sits at that path hang the command or exhaust its memory: a FIFO would block the read forever, a device such
// as /dev/zero never ends and reports a size of 0, a folder is no file. Each is refused before a byte is read,
// and the size limit is checked on the open descriptor, then again while reading (a file that grows).
import fs from "node:fs";

export type FileReadProblem = "missing" | "not-a-file" | "too-large" | "unreadable";

export class FileReadError extends Error {
  constructor(
    readonly problem: FileReadProblem,
    message: string,
  ) {
    super(message);
  }
}

// O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer that never comes.
const FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0);

/** The bytes of the regular file at `file` (symlinks followed), at most `maxBytes`; throws FileReadError. */
export function readRegularFile(file: string, maxBytes: number): Buffer {
  let fd: number;
  try {
    fd = fs.openSync(/*turbopackIgnore: true*/ file, FLAGS);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") throw new FileReadError("missing", `${file} does not exist`);
    throw new FileReadError("unreadable", `${file} cannot be read (${code ?? (e as Error).message})`);
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) throw new FileReadError("not-a-file", `${file} is ${kindOf(st)}, not a regular file`);
    const tooLarge = (size: number) => new FileReadError("too-large", `${file} is ${size} bytes; the limit is ${maxBytes}`);
    if (st.size > maxBytes) throw tooLarge(st.size);
    // Read to the end, not to the size fstat gave: a file that grew since is read whole or refused.
    let buf = Buffer.allocUnsafe(st.size + 1);
    let n = 0;
    for (;;) {
      if (n === buf.length) {
        if (n > maxBytes) throw tooLarge(n);
        const bigger = Buffer.allocUnsafe(Math.min(buf.length * 2, maxBytes + 1));
        buf.copy(bigger, 0, 0, n);
        buf = bigger;
      }
      const got = fs.readSync(fd, buf, n, buf.length - n, n);
      if (got === 0) break;
      n += got;
    }
    if (n > maxBytes) throw tooLarge(n);
    return buf.subarray(0, n);
  } catch (e) {
    if (e instanceof FileReadError) throw e;
    throw new FileReadError("unreadable", `${file} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  } finally {
    fs.closeSync(fd);
  }
}

/** readRegularFile as UTF-8 text. */
export const readRegularTextFile = (file: string, maxBytes: number): string => readRegularFile(file, maxBytes).toString("utf8");

function kindOf(st: fs.Stats): string {
  if (st.isDirectory()) return "a folder";
  if (st.isFIFO()) return "a named pipe";
  if (st.isCharacterDevice() || st.isBlockDevice()) return "a device";
  if (st.isSocket()) return "a socket";
  return "a special file";
}
