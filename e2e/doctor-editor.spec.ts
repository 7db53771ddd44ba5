// The doctor in the editor (issue #18): a finding is a marker on its line, and the obvious fix is one keystroke:
// the body runs python3 but allowed-tools only grants Read, so the quick fix adds the narrowest pattern that allows it.
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "./page-errors";
import { E2E_HOME } from "../playwright.config";
import { signInAsAdmin } from "./helpers";

const PROJECT_SKILLS = path.join(E2E_HOME, "demo-project", ".omniforge", "skills");

let made: string | null = null;
test.afterEach(() => {
  if (made) fs.rmSync(made, { recursive: true, force: true });
});

test("a doctor finding shows as a marker and its quick fix edits allowed-tools", async ({ page }) => {
  const name = `doc-fix-${Date.now().toString(36)}`;
  const dir = path.join(PROJECT_SKILLS, name);
  made = dir;
  fs.mkdirSync(path.join(dir, "scripts"), { recursive: true });
  fs.writeFileSync(path.join(dir, "scripts", "report.py"), "print('report')\n");
  fs.writeFileSync(
    path.join(dir, "SKILL.md"),
    `---\nname: ${name}\ndescription: Writes a short report. Use when someone asks for the weekly report.\nallowed-tools: Read\n---\n# Report\n\nRun the script:\n\n\`\`\`bash\npython3 scripts/report.py\n\`\`\`\n`,
  );
  await signInAsAdmin(page);
  await page.goto(`/skills/project/${name}`);
  const monaco = page.getByTestId("monaco-host").locator(".monaco-editor").first();
  await expect(monaco).toContainText("allowed-tools: Read");
  // The marker sits on the command's line.
  const line = monaco.locator(".view-line", { hasText: "python3 scripts/report.py" });
  await expect(monaco.locator(".squiggly-error, .squiggly-warning, .squiggly-info").first()).toBeAttached({ timeout: 15_000 });
  await line.click();
  await page.keyboard.press("ControlOrMeta+.");
  await expect(page.getByRole("option", { name: /Add Bash\(python3 scripts\/report\.py \*\) to allowed-tools/ })).toBeVisible();
  await page.getByRole("option", { name: /Add Bash\(python3 scripts\/report\.py \*\) to allowed-tools/ }).click();
  await expect(monaco).toContainText("allowed-tools: Read Bash(python3 scripts/report.py *)");
  await page.keyboard.press("ControlOrMeta+s");
  await expect(page.getByTestId("editor-notice")).toContainText("Saved SKILL.md");
  expect(fs.readFileSync(path.join(dir, "SKILL.md"), "utf8")).toContain("allowed-tools: Read Bash(python3 scripts/report.py *)\n");
  // The saved fix leaves the problem list too, not only the underline.
  await expect(page.getByTestId("diagnostics")).not.toContainText("tools.missing");
});

test("the problems panel lists the doctor's finding the editor underlines, in the text and the Details view (#41)", async ({ page }) => {
  const name = `doc-panel-${Date.now().toString(36)}`;
  const dir = path.join(PROJECT_SKILLS, name);
  made = dir;
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, "SKILL.md"),
    `---\nname: ${name}\ndescription: Drafts release notes from the changes list. Use when a release is cut.\nallowed-tools: Read\n---\n# Notes\n\nRead CHANGES.md, then fetch the tags:\n\n\`\`\`bash\ncurl -s https://example.com/tags.txt\n\`\`\`\n`,
  );
  await signInAsAdmin(page);
  await page.goto(`/skills/project/${name}`);
  const panel = page.getByTestId("diagnostics");
  await expect(panel).toContainText("1 error");
  await expect(panel).toContainText("tools.missing");
  await expect(panel).not.toContainText("No problems");
  await page.getByRole("tab", { name: "Details" }).click();
  await expect(panel).toContainText("tools.missing");
  await page.getByRole("tab", { name: "Text" }).click();
  await panel.getByRole("button", { name: /tools\.missing/ }).click();
  await expect(page.getByTestId("monaco-host").locator(".monaco-editor .current-line").first()).toBeAttached();
});
