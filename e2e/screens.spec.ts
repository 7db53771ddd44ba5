// The console on a laptop and a narrow window (issue 41 item 9): at 1440, 1280 and 800 px every main page fits its
// width (no sideways scroll of the page, of a form or of a table that is not meant to scroll), the header keeps to two
// rows, the editor's Side by side leaves the text a usable width, the playground's context meter stays beside the
// chat instead of under all of it, and the Layers matrix shows its last column.
import { type Page } from "@playwright/test";
import { expect, test } from "./page-errors";
import { monaco } from "./editor-helpers";
import { signInAsAdmin } from "./helpers";

const WIDTHS = [1440, 1280, 800] as const;
const PAGES = ["/", "/skills", "/layers", "/doctor", "/audit", "/policies", "/sources", "/tokens", "/users", "/account"];

/** What scrolls sideways on the page: the page itself, and any form, table or scroll box whose content is wider than it. */
async function sidewaysScrolls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const root = document.scrollingElement!;
    if (root.scrollWidth > root.clientWidth) found.push(`the page (${root.scrollWidth} > ${root.clientWidth})`);
    const name = (el: Element) => el.getAttribute("aria-label") ?? el.getAttribute("data-testid") ?? `${el.tagName.toLowerCase()}.${[...el.classList].slice(0, 4).join(".")}`;
    for (const el of document.querySelectorAll("main *")) {
      const h = el as HTMLElement;
      if (!h.offsetParent || h.closest("[data-scrolls-sideways], .monaco-editor, .monaco-diff-editor, pre")) continue;
      const overflowX = getComputedStyle(h).overflowX;
      const box = ["FORM", "TABLE"].includes(h.tagName) || h.getAttribute("role") === "table" || overflowX === "auto" || overflowX === "scroll";
      if (box && h.scrollWidth > h.clientWidth + 1) found.push(`${name(h)} (${h.scrollWidth} > ${h.clientWidth})`);
    }
    return found;
  });
}

/** The rows the header's links and buttons sit on (items whose middles are within a few pixels share a row). */
async function headerRows(page: Page): Promise<number> {
  return page.evaluate(() => {
    // The console's header, the first on the page (a chat has a header of its own).
    const header = document.querySelector("header")!;
    const middles = [...header.querySelectorAll("a, button, [data-testid=user-role]")]
      .map((el) => el.getBoundingClientRect())
      .filter((r) => r.width > 0 && r.height > 0)
      .map((r) => r.top + r.height / 2)
      .sort((a, b) => a - b);
    let rows = 0;
    let last = -Infinity;
    for (const m of middles) {
      if (m - last > 8) rows++;
      last = m;
    }
    return rows;
  });
}

async function fits(page: Page, what: string) {
  expect.soft(await sidewaysScrolls(page), `${what}: nothing scrolls sideways`).toEqual([]);
  expect.soft(await headerRows(page), `${what}: the header keeps to two rows`).toBeLessThanOrEqual(2);
}

test("the main pages fit 1440, 1280 and 800 px: no sideways scroll, a header of two rows at most", async ({ page }) => {
  test.setTimeout(240_000);
  await signInAsAdmin(page);
  // A session with one answered turn, for the playground's layout.
  await page.goto("/playground");
  const form = page.getByRole("form", { name: "New session" });
  await form.getByLabel("Title").fill("Screens check");
  await form.getByRole("button", { name: "Start session" }).click();
  await expect(page.getByTestId("session-title")).toHaveText("Screens check");
  await page.getByLabel("Message").fill("draft the release notes");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByTestId("turn").last().getByTestId("answer")).toContainText("Offline provider", { timeout: 30_000 });
  const session = page.url();

  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    for (const path of PAGES) {
      await page.goto(path);
      await expect(page.locator("main h1").first()).toBeVisible();
      await page.waitForLoadState("networkidle");
      await fits(page, `${path} at ${width} px`);
    }

    // The Layers matrix shows every column, the last one ("Agents get") inside its card.
    await page.goto("/layers");
    const matrix = page.getByTestId("layers-matrix");
    await expect(matrix.getByTestId("layer-row-release-notes")).toBeVisible();
    const card = (await matrix.boundingBox())!;
    const last = (await matrix.getByRole("columnheader", { name: "Agents get" }).boundingBox())!;
    expect.soft(last.x + last.width, `Layers at ${width} px: the last column is inside the matrix`).toBeLessThanOrEqual(card.x + card.width);

    // The editor side by side: the text keeps a usable width and the Details form does not scroll sideways.
    await page.goto("/skills/project/release-notes");
    await expect(monaco(page)).toContainText("name: release-notes", { timeout: 30_000 });
    await page.getByRole("tab", { name: "Side by side" }).click();
    await expect(page.getByTestId("details-form")).toBeVisible();
    const text = (await page.getByTestId("monaco-host").boundingBox())!;
    expect.soft(text.width, `Side by side at ${width} px: the text is at least 420 px wide`).toBeGreaterThanOrEqual(420);
    await fits(page, `the editor side by side at ${width} px`);

    // The playground: the context meter sits beside the chat, not below all of it.
    await page.goto(session);
    await expect(page.getByTestId("turn").last().getByTestId("answer")).toBeVisible();
    const chat = (await page.getByRole("region", { name: "Chat" }).boundingBox())!;
    const meter = (await page.getByRole("heading", { name: /Context meter/ }).boundingBox())!;
    expect.soft(meter.y, `the playground at ${width} px: the context meter starts beside the chat`).toBeLessThan(chat.y + chat.height);
    await fits(page, `the playground at ${width} px`);
  }
});
