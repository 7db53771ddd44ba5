// Output of the CLI goes through this so tests can capture it without spawning. The process's own io is made by
// bin/omniforge.mjs, the process entry: importing env.ts here for processEnv() would load zod (about 70 ms) at every
// start, `omniforge --help` and `skill validate` included, which read no setting of it.
import { constants } from "node:os";
import type { EnvSource } from "../../env";

export interface CliIO {
  out(text: string): void;
  /**
   * Output kept as bytes (skill list's kept answer), written without decoding and encoding it again; where absent,
   * the command decodes it for out().
   */
  outBytes?(bytes: Uint8Array): void;
  err(text: string): void;
  env: EnvSource;
  cwd: string;
  /**
   * Names the compiled CLI that runs (bin/omniforge.mjs gives the bundle's content-hashed commands script, which
   * changes with any command's code); what it remembers between runs (the listing cache) is kept per build.
   * Absent when run from sources: nothing is kept.
   */
  build?: string;
}

/**
 * The exit code of a command a signal stopped (Ctrl-C's SIGINT: 130, a polite kill's SIGTERM: 143): 128 + its number,
 * as a shell reports a process the signal ended, for a command that catches it to clean up first.
 */
export const signalExitCode = (signal: NodeJS.Signals): number => 128 + constants.signals[signal];

/** Collects output and hands it to io.out in pieces of about 64 KiB; null flushes the rest. */
export function chunkedWriter(io: CliIO): (text: string | null) => void {
  let parts: string[] = [];
  let size = 0;
  return (text) => {
    if (text !== null) {
      parts.push(text);
      size += text.length;
      if (size < 65536) return;
    }
    if (parts.length) io.out(parts.join(""));
    parts = [];
    size = 0;
  };
}
