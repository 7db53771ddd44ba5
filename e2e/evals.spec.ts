// Trigger tests as an author uses them (issue #17): open a skill, go to Evals, add three queries by typing, save
// the set, run it with the offline provider, read the table and the summary; change the description in the
// editor, run again and see which query changed outcome.
import fs from "node:fs";
import path from "node:path";
import { type Page } from "@playwright/test";
import { expect, test } from "./page-errors";
import { E2E_HOME } from "../playwright.config";
import { signInAsAdmin } from "./helpers";

const PROJECT_SKILLS = path.join(E2E_HOME, "demo-project", ".omniforge", "skills");
const name = `pdf-forms-${Date.now().toString(36)}`;

async function addQuery(page: Page, index: number, text: string, shouldTrigger: boolean) {
  await page.getByRole("button", { name: "Add query" }).click();
  const box = page.getByLabel(`Query ${index + 1}`, { exact: true });
  await box.click();
  await page.keyboard.type(text);
  const check = page.getByLabel(`Query ${index + 1} should trigger`);
  if ((await check.isChecked()) !== shouldTrigger) await check.click();
}

test("trigger tests: write a set, run it, improve the description, compare", async ({ page }) => {
  // Earlier runs against the same data home leave their copies, which would compete for the same queries.
  for (const old of fs.existsSync(PROJECT_SKILLS) ? fs.readdirSync(PROJECT_SKILLS) : []) {
    if (old.startsWith("pdf-forms-") && old !== name) fs.rmSync(path.join(PROJECT_SKILLS, old), { recursive: true, force: true });
  }
  const dir = path.join(PROJECT_SKILLS, name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "SKILL.md"), `---\nname: ${name}\ndescription: Fill PDF forms field by field. Use when someone has a PDF form to fill.\n---\n# PDF forms\n\nFill each field.\n`);
  await signInAsAdmin(page);
  await page.goto(`/skills/project/${name}`);
  await page.getByRole("tab", { name: "Evals" }).click();
  await expect(page.getByTestId("evals-view")).toBeVisible();

  await addQuery(page, 0, "fill in the fields of this PDF form", true);
  await addQuery(page, 1, "summarise what is in this CSV file", false);
  await addQuery(page, 2, "merge the scanned invoices into one document", true);
  await page.getByRole("button", { name: /^Save set/ }).click();
  await expect(page.getByText("Saved evals/triggers.json")).toBeVisible();
  expect(JSON.parse(fs.readFileSync(path.join(dir, "evals", "triggers.json"), "utf8"))).toEqual([
    { query: "fill in the fields of this PDF form", should_trigger: true },
    { query: "summarise what is in this CSV file", should_trigger: false },
    { query: "merge the scanned invoices into one document", should_trigger: true },
  ]);

  await page.getByRole("button", { name: "Run", exact: true }).click();
  const results = page.getByTestId("run-results");
  await expect(results).toContainText("done");
  await expect(page.getByTestId("result-row")).toHaveCount(3);
  await expect(page.getByTestId("run-summary")).toContainText("2/3 passed");
  await expect(page.getByTestId("run-summary")).toContainText("recall 50%");
  await expect(page.getByTestId("result-row").nth(2)).toContainText("fail");
  // A failed query always says what happened: the ranking's reasons, or in plain words when there are none.
  await expect(page.getByTestId("result-row").nth(2).getByTestId("why")).toContainText(/ranking: |No skill was chosen|fired instead/);
  await expect(page.getByTestId("run-summary").getByText("recall")).toHaveAttribute("title", /should fire the skill/);

  // Improve the description in the editor, typing as a person, and save.
  await page.getByRole("tab", { name: "Editor" }).click();
  const monaco = page.getByTestId("monaco-host").locator(".monaco-editor").first();
  await monaco.locator(".view-lines").click();
  // Find the end of the description (the line wraps, so End would stop mid-line), then type after it.
  await page.keyboard.press("ControlOrMeta+f");
  await page.keyboard.type("a PDF form to fill.");
  await page.keyboard.press("Enter");
  await page.keyboard.press("Escape");
  await page.keyboard.press("ArrowRight");
  await page.keyboard.type(" Also merges scanned invoices into one document.");
  await page.keyboard.press("Escape");
  await page.keyboard.press("ControlOrMeta+s");
  await expect(page.getByTestId("editor-notice")).toContainText("Saved SKILL.md");
  expect(fs.readFileSync(path.join(dir, "SKILL.md"), "utf8")).toContain("field by field. Use when someone has a PDF form to fill. Also merges scanned invoices into one document.\n");

  await page.getByRole("tab", { name: "Evals" }).click();
  await page.getByRole("button", { name: "Run", exact: true }).click();
  await expect(page.getByTestId("run-summary")).toContainText("3/3 passed");
  await expect(results).toContainText("compared with run");
  await expect(page.getByTestId("outcome-change")).toHaveCount(1);
  await expect(page.getByTestId("outcome-change")).toHaveText("now passes");
  await expect(page.getByTestId("history-chart")).toBeVisible();

  // The catalog's overview lists the skill with its last F1.
  await page.goto("/skills");
  await expect(page.getByTestId("eval-overview")).toContainText(name);
  await expect(page.getByTestId("eval-overview")).toContainText("100%");
});
