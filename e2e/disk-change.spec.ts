// A file changed on disk while its skill is open (a git pull, another editor) is noticed at once (issue #20): an
// untouched buffer shows the new text, an edited one opens the comparison instead of losing either side.
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "./page-errors";
import { E2E_HOME } from "../playwright.config";
import { signInAsAdmin } from "./helpers";

const PROJECT_SKILLS = path.join(E2E_HOME, "demo-project", ".omniforge", "skills");

test("changes on disk show up in the open editor; with unsaved edits, as a comparison", async ({ page }) => {
  const name = `disk-${Date.now().toString(36)}`;
  const file = path.join(PROJECT_SKILLS, name, "SKILL.md");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const text = (body: string) => `---\nname: ${name}\ndescription: Watches the disk. Use when testing.\n---\n# Notes\n\n${body}\n`;
  fs.writeFileSync(file, text("First body."));
  await signInAsAdmin(page);
  await page.goto(`/skills/project/${name}`);
  const monaco = page.getByTestId("monaco-host").locator(".monaco-editor").first();
  await expect(monaco).toContainText("First body.");

  fs.writeFileSync(file, text("Pulled from git."));
  await expect(page.getByTestId("editor-notice")).toContainText("SKILL.md changed on disk", { timeout: 10_000 });
  await expect(monaco).toContainText("Pulled from git.");

  await monaco.locator(".view-lines").click();
  await page.keyboard.press("ControlOrMeta+End");
  await page.keyboard.type("My unsaved line.");
  fs.writeFileSync(file, text("Another editor wrote this."));
  await expect(page.getByText("SKILL.md changed on disk while you were editing it")).toBeVisible({ timeout: 10_000 });
  await expect(page.getByTestId("conflict-diff")).toContainText("Another editor wrote this.");
  await expect(page.getByTestId("conflict-diff")).toContainText("My unsaved line.");
});

test("a file deleted on disk while open is said once, is not asked for again, and saving writes it back", async ({ page }) => {
  const name = `gone-${Date.now().toString(36)}`;
  const dir = path.join(PROJECT_SKILLS, name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "SKILL.md"), `---\nname: ${name}\ndescription: Loses a file. Use when testing.\n---\n# Notes\n\nSee notes.md.\n`);
  fs.writeFileSync(path.join(dir, "notes.md"), "Kept notes.\n");
  const missing: string[] = [];
  page.on("response", (r) => {
    if (r.url().includes("skill.readFile") && r.status() === 404) missing.push(r.url());
  });
  await signInAsAdmin(page);
  await page.goto(`/skills/project/${name}?file=notes.md`);
  const monaco = page.getByTestId("monaco-host").locator(".monaco-editor").first();
  await expect(monaco).toContainText("Kept notes.");

  fs.rmSync(path.join(dir, "notes.md"));
  await expect(page.getByTestId("editor-notice")).toContainText("notes.md was deleted on disk", { timeout: 10_000 });
  await expect(monaco).toContainText("Kept notes.");
  // Two more rounds of the disk poll (every 2.5 s): the deleted file is not asked for again.
  await page.waitForTimeout(6000);
  expect(missing).toHaveLength(1);

  await page.getByRole("button", { name: /^Save/ }).click();
  await expect(page.getByTestId("editor-notice")).toContainText("Saved notes.md");
  expect(fs.readFileSync(path.join(dir, "notes.md"), "utf8")).toBe("Kept notes.\n");
});
