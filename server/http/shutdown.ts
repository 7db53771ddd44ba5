// What the console's server does on SIGTERM/SIGINT before it exits: stop taking requests and remove what it
// left in shared places (its sandbox folders in the system temp folder). Node's default for these signals is
// to die on the spot, which is how those folders used to be left behind.
export function onShutdown(cleanup: () => void | Promise<void>, finalSync?: () => void): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    // A cleanup that hangs must not keep a stopped server alive.
    const deadline = setTimeout(() => process.exit(signal === "SIGINT" ? 130 : 143), 5_000);
    deadline.unref();
    void Promise.resolve()
      .then(cleanup)
      .catch((e: unknown) => console.error("[omniforge] cleanup on exit failed:", e))
      .finally(() => process.exit(0));
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  if (finalSync) process.on("exit", finalSync);
}
