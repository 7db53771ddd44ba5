// What `npm start` passes on of the console server's standard output. Next's custom server times the loading of
// next.config.ts and prints it at every start ("✓ Running next.config.ts took 659ms": its router server loads the
// config with silent: false, which no option of next() changes). Nothing a user can act on, and not ours: a clean
// start prints only the console's own lines. Everything else, Next's errors and warnings included, goes through.
import type { Readable, Writable } from "node:stream";
import readline from "node:readline";

const ANSI = /\x1b\[[0-9;]*m/g;
const CONFIG_TIMING = /^\s*(?:✓\s*)?Running next\.config\.[cm]?[jt]s took [\d.]+\s*m?s\s*$/;

/** Whether a line of the server's output reaches the user. */
export function shownLine(line: string): boolean {
  return !CONFIG_TIMING.test(line.replace(ANSI, ""));
}

/** Copies `from` to `to` line by line, leaving out what shownLine drops. */
export function passOutput(from: Readable, to: Writable): void {
  readline.createInterface({ input: from, crlfDelay: Infinity }).on("line", (line) => {
    if (shownLine(line)) to.write(`${line}\n`);
  });
}

/**
 * The start's line saying where the console is. Behind a proxy that is NEXTAUTH_URL, the address people use (a
 * team server printed only its own http://localhost:<PORT>, where sign-in then sends the browser elsewhere); the
 * server's own port follows it then, for the proxy's configuration.
 */
export function consoleAddressLine(publicUrl: string | undefined, port: string): string {
  const own = `http://localhost:${port}`;
  if (!publicUrl || new URL(publicUrl).origin === own) return `[omniforge] console: ${own}`;
  return `[omniforge] console: ${publicUrl} (NEXTAUTH_URL; this server listens on port ${port})`;
}
