import { expect, test } from "./page-errors";
import { signInAsAdmin } from "./helpers";

// The one ranking in the console: the skills page's request box and the playground's listing preview, typed
// as a person types.
test("the skills page finds the skill for a request, explains the ranking on hover, and says when none serves it", async ({ page }) => {
  await signInAsAdmin(page);
  await page.goto("/skills");
  const box = page.getByLabel("Find the skill for a request");
  await box.click();
  await page.keyboard.type("what is in this csv file of sales");
  const first = page.getByTestId("finder-results").locator("li").first();
  await expect(first).toContainText("csv-insights");
  await expect(first).toHaveAttribute("title", /name matches 'csv'/);
  await first.hover();
  await box.fill("");
  await page.keyboard.type("what is the capital of Peru");
  await expect(page.getByTestId("finder-abstain")).toContainText("No skill clearly serves this request");
  // The result links to the editor.
  await box.fill("");
  await page.keyboard.type("draft the release notes");
  await page.getByTestId("finder-results").getByRole("link", { name: "release-notes" }).click();
  await expect(page).toHaveURL(/\/skills\/project\/release-notes/);
});

test("the playground previews the listing for a typed request before it is sent", async ({ page }) => {
  await signInAsAdmin(page);
  await page.goto("/playground");
  const form = page.getByRole("form", { name: "New session" });
  await form.getByLabel("Title").fill("Listing preview");
  await form.getByRole("button", { name: "Start session" }).click();
  await expect(page.getByTestId("session-title")).toHaveText("Listing preview");
  await page.getByLabel("Message").click();
  await page.keyboard.type("draft the release notes for 2.0");
  await page.getByRole("button", { name: "Preview listing" }).click();
  const preview = page.getByTestId("listing-preview");
  await expect(preview).toContainText("Best matches for “draft the release notes for 2.0”");
  await expect(preview.getByTestId("preview-matches").locator("li").first()).toContainText("release-notes");
  await expect(preview.getByTestId("preview-matches").locator("li").first()).toHaveAttribute("title", /name matches 'release', 'notes'/);
  await expect(page.getByTestId("listing-why")).toContainText("fit the budget");
  // Nothing was sent: no turn yet.
  await expect(page.getByTestId("turn")).toHaveCount(0);
  await page.getByRole("button", { name: "Hide preview" }).click();
  await expect(preview).toHaveCount(0);
});
