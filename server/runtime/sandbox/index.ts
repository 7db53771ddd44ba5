// The sandbox for skill scripts (SANDBOX.md): create one per server, call run() for run_script,
// the bash tool and hooks; status() for the health page and `omniforge sandbox check`.
import { Sandbox, type SandboxOptions } from "./sandbox";
import type { SandboxStatus } from "./types";

export type { SandboxStatus } from "./types";
export { Sandbox, DEFAULT_SANDBOX_UID, DEFAULT_SANDBOX_GID, type SandboxOptions } from "./sandbox";

export function createSandbox(options: SandboxOptions = {}): Sandbox {
  return new Sandbox(options);
}

/** One self-test with a throwaway runner (its runtime dir is removed afterwards). */
export async function sandboxSelfTest(options: SandboxOptions = {}): Promise<SandboxStatus> {
  const sandbox = new Sandbox(options);
  try {
    return await sandbox.status();
  } finally {
    await sandbox.close();
  }
}

/** How a host turns its environment into the unsafe switch: only the exact value "unsafe" counts. */
export function unsafeRequested(env: Record<string, string | undefined>): boolean {
  return env.OMNIFORGE_SANDBOX === "unsafe";
}
