// The `test` every spec uses (issue 41 item 6): a test fails when any page it opened threw an uncaught error, in
// the page the fixture gives and in every context a spec opens itself (a second user, a viewer). A person sees
// nothing of such an error but a screen that stops answering, so the journeys are the place to catch it.
import { test as base, type Browser, type BrowserContext } from "@playwright/test";

export { expect } from "@playwright/test";

/** Each error once, with the page it happened on, for the failure message. */
function listen(context: BrowserContext, errors: string[]): void {
  context.on("weberror", (e) => {
    const where = e.page()?.url() ?? "a page";
    errors.push(`${where}: ${e.error().stack ?? e.error().message}`);
  });
}

export const test = base.extend<{ failOnPageErrors: void }>({
  failOnPageErrors: [
    async ({ context, browser }, use) => {
      const errors: string[] = [];
      listen(context, errors);
      // Contexts the spec makes itself (browser.newContext) are watched too, for the length of the test.
      const b = browser as Browser & { newContext: Browser["newContext"] };
      const original = b.newContext.bind(b);
      b.newContext = async (...args) => {
        const c = await original(...args);
        listen(c, errors);
        return c;
      };
      await use();
      b.newContext = original;
      if (errors.length > 0) throw new Error(`Uncaught error in the page:\n${errors.join("\n\n")}`);
    },
    { auto: true },
  ],
});
