// Long synchronous work cut in steps (a generator that yields where a pause is fine), run either straight through or
// with a turn of the event loop at every yield: the console's thread then serves the requests that arrived (health
// first of all) between slices, while the CLI, which serves nobody meanwhile, runs the same steps without pausing.

/** A turn of the event loop (setImmediate: pending I/O such as a request runs first). */
export const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Runs the steps to the end in this turn. */
export function runNow<T>(steps: Generator<void, T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/** Runs the steps with a turn of the event loop at every yield. */
export async function runInTurns<T>(steps: Generator<void, T>): Promise<T> {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
    await yieldToEventLoop();
  }
}
