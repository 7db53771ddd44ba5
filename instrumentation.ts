// Runs once per server process before the first request: migrations, first admin, demo data.
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { ensureReady } = await import("./server/services/bootstrap");
    await ensureReady();
  }
}
