// Output of the CLI goes through this so tests can capture it without spawning. The process's own io is made by
// bin/omniforge.mjs, the process entry: importing env.ts here for processEnv() would load zod (about 70 ms) at every
// start, `omniforge --help` and `skill validate` included, which read no setting of it.
import type { EnvSource } from "../../env";

export interface CliIO {
  out(text: string): void;
  err(text: string): void;
  env: EnvSource;
  cwd: string;
}
