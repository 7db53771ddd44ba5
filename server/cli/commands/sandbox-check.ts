// `omniforge sandbox check [--json]`: runs the sandbox self-test (SANDBOX.md §5.3) and says whether
// skill scripts can run here. Exit 0 when they run sandboxed, 1 when they do not (unavailable or unsafe).
import type { CliIO } from "../io";
import { sandboxSelfTest, unsafeRequested } from "../../runtime/sandbox/index";

export const summary = "Check whether skill scripts can run in the sandbox on this host";

const USAGE = "usage: omniforge sandbox check [--json] [--bwrap PATH]\n";

export async function run(args: string[], io: CliIO): Promise<number> {
  let json = false;
  let bwrapPath: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--json") json = true;
    else if (a === "--bwrap" && args[i + 1] && args[i + 1]!.startsWith("/")) bwrapPath = args[++i];
    else if (a === "--help" || a === "-h") {
      io.out(USAGE);
      return 0;
    } else {
      io.err(`omniforge sandbox check: unexpected argument "${a}"\n${USAGE}`);
      return 2;
    }
  }
  let status;
  try {
    status = await sandboxSelfTest({ bwrapPath, unsafe: unsafeRequested(io.env) });
  } catch (err) {
    io.err(`omniforge sandbox check: the self-test could not run: ${(err as Error).message}\n`);
    return 1;
  }
  const canRun = status.mode === "sandboxed" || status.mode === "sandboxed-no-cgroup";
  if (json) {
    io.out(JSON.stringify(status, null, 2) + "\n");
  } else {
    io.out(`mode: ${status.mode}\n${status.detail}\n\n`);
    for (const c of status.checks) io.out(`  ${c.ok ? "ok  " : "FAIL"} ${c.name.padEnd(12)} ${c.detail ?? ""}\n`);
  }
  return canRun ? 0 : 1;
}
