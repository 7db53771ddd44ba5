// A file changed on disk while its skill is open (a git pull, another editor) is noticed at once (issue #20): an
// untouched buffer shows the new text, an edited one opens the comparison instead of losing either side.
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
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
