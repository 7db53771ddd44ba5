// Runs once per server process before the first request: migrations, first admin, demo data.
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { ensureReady, StartRefused } = await import("./server/services/bootstrap");
    try {
      await ensureReady();
    } catch (e) {
      // A database that does not answer yet is tried again by the next request; a wrong data home never comes right.
      if (!(e instanceof StartRefused)) throw e;
      console.error(`omniforge: ${e.message}`);
      process.exit(1);
    }
  }
}
