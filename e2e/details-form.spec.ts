// The Details form (issue #20): a no-code author changes a skill's properties in fields, never in YAML, and the
// file keeps what a YAML author wrote (a comment, a field the form does not know); an edit of the text shows in
// the form at once. A new skill starts from the guided questions and is saved valid without seeing `---`.
import fs from "node:fs";
import path from "node:path";
import { type Page } from "@playwright/test";
import { expect, test } from "./page-errors";
import { E2E_HOME } from "../playwright.config";
import { signInAsAdmin } from "./helpers";

const PROJECT_SKILLS = path.join(E2E_HOME, "demo-project", ".omniforge", "skills");
const made: string[] = [];
test.afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const monaco = (page: Page) => page.getByTestId("monaco-host").locator(".monaco-editor").first();
const details = (page: Page) => page.getByRole("form", { name: "Details" });

test("the form and the text edit the same SKILL.md, keeping a YAML comment and an unknown key", async ({ page }) => {
  const name = `details-${Date.now().toString(36)}`;
  const dir = path.join(PROJECT_SKILLS, name);
  made.push(dir);
  fs.mkdirSync(path.join(dir, "scripts"), { recursive: true });
  fs.writeFileSync(path.join(dir, "scripts", "check.sh"), "#!/bin/sh\necho ok\n", { mode: 0o755 });
  fs.writeFileSync(
    path.join(dir, "SKILL.md"),
    `---\n# Reviewed by the forms team\nname: ${name}\ndescription: Fills PDF forms.\nx-team: forms\nexecution:\n  network: restricted\n---\n# Forms\n\nFill each field.\n`,
  );
  await signInAsAdmin(page);
  await page.goto(`/skills/project/${name}`);
  await expect(monaco(page)).toContainText("x-team: forms");

  await page.getByRole("tab", { name: "Details" }).click();
  const form = details(page);
  await expect(form.getByLabel("Name", { exact: true })).toHaveValue(name);

  // The name rule is the validator's, checked as the author types.
  await form.getByLabel("Name", { exact: true }).fill("Forms_Tool");
  await expect(form.getByTestId("name-rule")).toContainText('must be lowercase: use "forms-tool"');
  await form.getByLabel("Name", { exact: true }).fill("Émoji🚀");
  await expect(form.getByTestId("name-rule")).toContainText('use "emoji"');
  await form.getByLabel("Name", { exact: true }).fill("claude-forms");
  await expect(form.getByTestId("name-rule")).toContainText("“claude” is a reserved word");
  await form.getByLabel("Name", { exact: true }).fill(name);
  await expect(form.getByTestId("name-rule")).toBeEmpty();
  // Seed 000's execution block is shown with what the sandbox grants.
  await expect(form.getByTestId("execution")).toContainText("network: restricted");
  await expect(form.getByTestId("execution")).toContainText("not granted");

  // Typed as a person types: key by key.
  await form.getByLabel("Description").click();
  await page.keyboard.press("End");
  await page.keyboard.type(" Use when a PDF form is attached.");
  await expect(form.getByTestId("description-meter")).toContainText("/ 1024");
  await form.getByLabel("License").fill("MIT");
  await form.getByLabel("Add to Allowed tools").fill("Read");
  await page.keyboard.press("Enter");
  await form.getByLabel("Add to Allowed tools").fill("Bash(git:*)");
  await page.keyboard.press("Enter");
  await form.getByLabel("Add to Tags").fill("pdf");
  await page.keyboard.press("Enter");
  await form.getByLabel("New metadata key").fill("owner");
  await form.getByLabel("New metadata value").fill("forms-team");
  await form.getByRole("button", { name: "Add" }).last().click();
  await form.getByLabel("pre-hook").selectOption("scripts/check.sh");
  await expect(form.getByTestId("other-fields")).toContainText("x-team");

  // The text shows the same buffer: the comment and the unknown key are still there, in their place.
  await page.getByRole("tab", { name: "Text" }).click();
  await expect(monaco(page)).toContainText("# Reviewed by the forms team");
  await expect(monaco(page)).toContainText("x-team: forms");
  await expect(monaco(page)).toContainText("allowed-tools: Read Bash(git:*)");

  await page.getByRole("button", { name: /^Save/ }).click();
  await expect(page.getByTestId("editor-notice")).toContainText("Saved SKILL.md");
  const saved = fs.readFileSync(path.join(dir, "SKILL.md"), "utf8");
  expect(saved).toBe(
    `---\n# Reviewed by the forms team\nname: ${name}\ndescription: Fills PDF forms. Use when a PDF form is attached.\nx-team: forms\nexecution:\n  network: restricted\n` +
      `license: MIT\nallowed-tools: Read Bash(git:*)\ntags: [pdf]\nmetadata:\n  owner: forms-team\nhooks:\n  pre: scripts/check.sh\n---\n# Forms\n\nFill each field.\n`,
  );
  await expect(page.getByTestId("diagnostics")).toContainText("0 errors");

  // And the other way: an edit of the text shows in the form.
  await monaco(page).locator(".view-line", { hasText: "license: MIT" }).click();
  await page.keyboard.press("End");
  await page.keyboard.type("-0");
  await page.keyboard.press("Escape");
  await page.getByRole("tab", { name: "Details" }).click();
  await expect(details(page).getByLabel("License")).toHaveValue("MIT-0");
  // The choice of view is remembered.
  await page.getByRole("button", { name: /^Save/ }).click();
  await expect(page.getByTestId("editor-notice")).toContainText("Saved SKILL.md");
  await page.reload();
  await expect(details(page).getByLabel("License")).toHaveValue("MIT-0");
});

test("a new skill from the guided form is saved valid without meeting the YAML", async ({ page }) => {
  const name = `guided-${Date.now().toString(36)}`;
  made.push(path.join(PROJECT_SKILLS, name));
  await signInAsAdmin(page);
  await page.goto("/skills");
  await page.getByRole("button", { name: "New skill" }).click();
  const create = page.getByRole("form", { name: "New skill" });
  await create.getByLabel("Skill name").fill(name);
  await expect(page.getByTestId("name-check")).toContainText("available");
  await create.getByLabel("What it does").fill("Fills PDF forms");
  await create.getByLabel("When to use it").fill("the user asks to complete a PDF");
  await expect(create.getByLabel("Description")).toHaveValue("Fills PDF forms. Use when the user asks to complete a PDF.");
  await create.getByLabel("Template").selectOption({ label: "Instructions only" });
  await create.getByRole("button", { name: "Create skill" }).click();
  await expect(page).toHaveURL(new RegExp(`/skills/project/${name}`));

  // The editor opens on the form: the fields hold the answers, the YAML stays out of sight.
  const form = details(page);
  await expect(form.getByLabel("Name", { exact: true })).toHaveValue(name, { timeout: 30_000 });
  await expect(page.getByTestId("monaco-host")).toBeHidden();
  await form.getByLabel("Add to Tags").fill("pdf");
  await page.keyboard.press("Enter");
  await page.getByRole("button", { name: /^Save/ }).click();
  await expect(page.getByTestId("editor-notice")).toContainText("Saved SKILL.md");
  await expect(page.getByTestId("diagnostics")).toContainText("0 errors");
  const saved = fs.readFileSync(path.join(PROJECT_SKILLS, name, "SKILL.md"), "utf8");
  expect(saved).toContain(`name: ${name}\ndescription: "Fills PDF forms. Use when the user asks to complete a PDF."\ntags: [pdf]\n---\n`);
});

// The Save button's title says Ctrl/Cmd+S; outside the text (the Details form, the change note) the key was the
// browser's "save this web page" and the edit stayed unsaved. Found by a new author in a first-run sweep.
test("Ctrl+S saves from the Details form and from the change note, and Enter in the change note saves", async ({ page }) => {
  const name = `details-key-${Date.now().toString(36)}`;
  const dir = path.join(PROJECT_SKILLS, name);
  made.push(dir);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "SKILL.md"), `---\nname: ${name}\ndescription: Fills PDF forms.\n---\n# Forms\n`);
  await signInAsAdmin(page);
  await page.goto(`/skills/project/${name}`);
  await expect(monaco(page)).toContainText("Fills PDF forms.");
  await page.getByRole("tab", { name: "Details" }).click();

  const tags = details(page).getByLabel("Add to Tags");
  await tags.click();
  await page.keyboard.type("forms");
  await page.keyboard.press("Enter");
  await page.keyboard.press("ControlOrMeta+s");
  await expect(page.getByTestId("editor-notice")).toContainText("Saved SKILL.md");
  expect(fs.readFileSync(path.join(dir, "SKILL.md"), "utf8")).toContain("tags: [forms]");

  await details(page).getByLabel("License", { exact: true }).click();
  await page.keyboard.type("MIT");
  await page.getByLabel("Change note").click();
  await page.keyboard.type("licensed");
  await page.keyboard.press("ControlOrMeta+s");
  await expect.poll(() => fs.readFileSync(path.join(dir, "SKILL.md"), "utf8")).toContain("license: MIT");

  await details(page).getByLabel("Compatibility", { exact: true }).click();
  await page.keyboard.type("Python 3");
  await page.getByLabel("Change note").click();
  await page.keyboard.press("Enter");
  await expect.poll(() => fs.readFileSync(path.join(dir, "SKILL.md"), "utf8")).toContain("compatibility: Python 3");
  await expect(page.getByRole("button", { name: "Save", exact: true })).toBeVisible(); // nothing left unsaved
});
