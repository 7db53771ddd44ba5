// Output of the CLI goes through this so tests can capture it without spawning.
import { processEnv, type EnvSource } from "../../env";

export interface CliIO {
  out(text: string): void;
  err(text: string): void;
  env: EnvSource;
  cwd: string;
}

export const defaultIO: CliIO = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  env: processEnv(),
  cwd: process.cwd(),
};
