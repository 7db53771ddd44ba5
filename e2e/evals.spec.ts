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

test("offline: a typed 'abc' in Runs per query is refused, and Suggest a better description proposes from the failing query's words", async ({ page }) => {
  const skill = `receipt-keeper-${Date.now().toString(36)}`;
  for (const old of fs.existsSync(PROJECT_SKILLS) ? fs.readdirSync(PROJECT_SKILLS) : []) {
    if (old.startsWith("receipt-keeper-")) fs.rmSync(path.join(PROJECT_SKILLS, old), { recursive: true, force: true });
  }
  const dir = path.join(PROJECT_SKILLS, skill);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, "SKILL.md"),
    `---\nname: ${skill}\ndescription: Archive expense receipts by month. Use when someone wants their receipts archived.\n---\n# Receipts\n\n` +
      "Scan each receipt, then store the scan in the folder of its month. For a reimbursement claim, attach the archived receipts.\n",
  );
  try {
    await signInAsAdmin(page);
    await page.goto(`/skills/project/${skill}`);
    await page.getByRole("tab", { name: "Evals" }).click();
    await expect(page.getByTestId("evals-view")).toBeVisible();
    const set = page.getByRole("region", { name: "Trigger set" });
    await addQuery(page, 0, "archive my receipts for March", true);
    await expect(set).toContainText("evals/triggers.json · 1 query");
    await expect(set).not.toContainText("1 queries");
    await addQuery(page, 1, "keep my expense receipts", true);
    await addQuery(page, 2, "reimbursement for the taxi fare", true);
    await addQuery(page, 3, "archive the receipts of April", true);
    await addQuery(page, 4, "review this pull request", false);
    await addQuery(page, 5, "draft the release notes", false);
    await expect(set).toContainText("6 queries");
    await page.getByRole("button", { name: /^Save set/ }).click();
    await expect(page.getByText("Saved evals/triggers.json")).toBeVisible();

    // A typed "abc" is said to be wrong where it was typed, and Run refuses it rather than running with a default.
    const runsPer = page.getByLabel("Runs per query");
    await runsPer.click();
    await page.keyboard.type("abc");
    await expect(runsPer).toHaveValue("abc");
    await expect(page.getByTestId("runs-problem")).toHaveText('Runs per query must be a whole number from 1 to 10: "abc" is not.');
    await page.getByRole("button", { name: "Run", exact: true }).click();
    await expect(page.getByTestId("evals-error")).toContainText("Runs per query must be a whole number from 1 to 10");
    await expect(page.getByTestId("run-results")).toHaveCount(0);
    await runsPer.fill("");
    await expect(page.getByTestId("runs-problem")).toHaveCount(0);

    await page.getByRole("button", { name: "Run", exact: true }).click();
    await expect(page.getByTestId("run-summary")).toContainText("5/6 passed");
    await expect(page.getByTestId("result-row").nth(2)).toContainText("fail");

    // Offline, the suggestion comes from the failing query's words that the skill's text already uses.
    await page.getByRole("button", { name: "Suggest a better description" }).click();
    const suggestion = page.getByTestId("suggestion");
    await expect(suggestion.getByTestId("suggestion-source")).toContainText("Proposed offline");
    await expect(suggestion.getByTestId("suggestion-source")).toContainText("(reimbursement)");
    await expect(suggestion).toContainText("Also for requests about reimbursement.");
    const row = suggestion.getByTestId("ranking-row").filter({ hasText: "reimbursement for the taxi fare" });
    await expect(row).toContainText("too weak to choose");
    await expect(row.locator("td").nth(3)).toContainText("chosen");
    await expect(suggestion).toContainText("for the 1 query the current description gets wrong");
    await expect(suggestion.getByTestId("model-would-add")).toContainText("(taxi, fare)");
    await expect(suggestion.getByTestId("model-would-add")).toContainText("OpenAI-compatible or Anthropic provider");
    await suggestion.getByRole("button", { name: "Apply description" }).click();
    await expect(suggestion).toContainText("Applied: SKILL.md saved as a new version");
    expect(fs.readFileSync(path.join(dir, "SKILL.md"), "utf8")).toContain("receipts archived. Also for requests about reimbursement.\n");
    await page.getByRole("button", { name: "Run", exact: true }).click();
    await expect(page.getByTestId("run-summary")).toContainText("6/6 passed");
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
