// The README's screenshot is made here, by a browser run, not by hand: the editor on a demo skill at 1280 x 800.
// Every e2e run writes it; commit docs/screenshots/ when what it shows has changed.
import path from "node:path";
import { expect, test } from "./page-errors";
import { monaco } from "./editor-helpers";
import { signInAsAdmin } from "./helpers";

const out = path.resolve(import.meta.dirname, "..", "docs", "screenshots");

test("the README's screenshot: the editor on the demo release-notes skill", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInAsAdmin(page);
  await page.goto("/skills/project/release-notes");
  await expect(monaco(page)).toContainText("name: release-notes", { timeout: 30_000 });
  await expect(page.getByTestId("diagnostics")).toContainText("errors");
  await expect(page.getByTestId("preview")).toContainText("Collect the changes");
  // The cursor's blink and the clock are the only moving parts: hide the caret so two runs give the same picture.
  await page.addStyleTag({ content: ".monaco-editor .cursor { visibility: hidden !important; }" });
  await page.screenshot({ path: path.join(out, "editor.png") });
});
