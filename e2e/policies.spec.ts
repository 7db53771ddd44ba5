// The policies page's name rules as an admin uses them: disable one layer's definition and enable it again, block
// a mistyped name and hear which one was meant, turn the allowlist on and off (an empty one is asked about first),
// and save forbidden name patterns after the preview says what they would block. Every change is undone, so the
// other journeys see the demo catalog as it was. Then the allowance of reserved words (issue 37 item 7), as the
// editor's problem list shows it.
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "./page-errors";
import { E2E_HOME } from "../playwright.config";
import { applyPolicyChange, signInAsAdmin } from "./helpers";

test("an admin disables a definition, runs an allowlist and forbids a word, then undoes each", async ({ page }) => {
  await signInAsAdmin(page);
  await page.goto("/policies");

  const disabled = page.getByRole("region", { name: "Disabled definitions" });
  await disabled.getByLabel("Skill name to disable").fill("git-helper");
  await disabled.getByLabel("Layer").selectOption("project");
  await disabled.getByRole("button", { name: "Disable" }).click();
  await applyPolicyChange(page);
  const row = page.getByTestId("disabled-definitions").getByRole("listitem").filter({ hasText: "git-helper" });
  await expect(row).toContainText("git-helper in the project layer");
  await expect(disabled.getByLabel("Skill name to disable")).toHaveValue(""); // the form empties for the next entry
  await row.getByRole("button", { name: "Enable" }).click();
  await applyPolicyChange(page);
  await expect(page.getByTestId("disabled-definitions")).not.toContainText("git-helper");

  // Blocking a mistyped name is kept, but the page says it matches nothing today and which name was meant (#41).
  const blocked = page.getByRole("region", { name: "Blocked names" });
  await blocked.getByLabel("Skill name to block").fill("git-helpr");
  await blocked.getByRole("button", { name: "Block" }).click();
  await applyPolicyChange(page);
  await expect(blocked.getByTestId("policy-unmatched")).toHaveText('No skill is named "git-helpr" today: the rule matches nothing until one appears. Did you mean "git-helper"?');
  await blocked.getByRole("button", { name: "Unblock git-helpr" }).click();
  await applyPolicyChange(page);
  await expect(page.getByTestId("blocked-names")).not.toContainText("git-helpr");
  await expect(blocked.getByTestId("policy-unmatched")).toHaveCount(0);

  const allowlist = page.getByRole("region", { name: "Allowlist" });
  await expect(allowlist).toContainText("Off: every name may be active unless blocked.");
  // An empty allowlist would switch every skill off: declining the question leaves the mode off.
  page.once("dialog", (d) => void d.dismiss());
  await allowlist.getByRole("button", { name: "Turn on with these names" }).click();
  await expect(allowlist).toContainText("Off: every name may be active unless blocked.");
  await allowlist.getByLabel("Allowlisted names").fill("git-helper\nrelease-notes");
  await allowlist.getByRole("button", { name: "Turn on with these names" }).click();
  await applyPolicyChange(page);
  await expect(allowlist).toContainText("On: only the 2 listed names may be active.");
  await expect(allowlist.getByLabel("Allowlisted names")).toHaveValue("git-helper\nrelease-notes");
  await allowlist.getByRole("button", { name: "Turn allowlist mode off" }).click();
  await applyPolicyChange(page);
  await expect(allowlist).toContainText("Off: every name may be active unless blocked.");

  const forbidden = page.getByRole("region", { name: "Forbidden names" });
  await forbidden.getByLabel("Forbidden name patterns").fill("git");
  await expect(forbidden.getByTestId("pattern-preview")).toContainText(/Would block \d+ skills? of this catalog: .*git-helper/);
  await forbidden.getByRole("button", { name: "Save patterns" }).click();
  await applyPolicyChange(page);
  await page.reload();
  await expect(forbidden.getByLabel("Forbidden name patterns")).toHaveValue("git");
  await forbidden.getByRole("button", { name: /Add vendor words/ }).click();
  await applyPolicyChange(page);
  await expect(forbidden.getByLabel("Forbidden name patterns")).toHaveValue("anthropic\nclaude\ngemini\ngit\nopenai"); // stored sorted
  await forbidden.getByLabel("Forbidden name patterns").fill("");
  await forbidden.getByRole("button", { name: "Save patterns" }).click();
  await applyPolicyChange(page);
  await page.reload();
  await expect(forbidden.getByLabel("Forbidden name patterns")).toHaveValue("");
  await expect(page.getByTestId("policy-error")).toHaveCount(0);
});

test("ticking an approval switch first says which skills it deactivates; Cancel leaves it off, Apply turns it on (#41 item 2)", async ({ page }) => {
  await signInAsAdmin(page);
  await page.goto("/policies");
  const box = page.getByLabel("Require approval for project skills");
  await expect(box).not.toBeChecked();
  await box.click();
  const dialog = page.getByRole("dialog", { name: "What this policy change does" });
  await expect(dialog).toContainText("Require approval for project skills: on");
  await expect(dialog.getByTestId("policy-preview")).toContainText(/^\d+ skills? becomes? inactive until approved: .*git-helper/);
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(box).not.toBeChecked();
  await page.reload();
  await expect(box).not.toBeChecked();

  // The preview's names are what the Layers page then shows waiting.
  await box.click();
  const said = await applyPolicyChange(page);
  await expect(box).toBeChecked();
  await page.goto("/layers?q=git-helper");
  await expect(page.getByTestId("cell-git-helper-project")).toContainText("pending approval");
  expect(said).toContain("git-helper");

  await page.goto("/policies");
  await box.click();
  await expect(dialog.getByTestId("policy-preview")).toContainText(/becomes? active: .*git-helper/);
  await applyPolicyChange(page);
  await expect(box).not.toBeChecked();
  // Switches that move no definition say so.
  await page.getByLabel("Administrators may change users' personal skills").click();
  await expect(dialog.getByTestId("policy-preview")).toHaveText("Nothing changes for any skill.");
  await dialog.getByRole("button", { name: "Cancel" }).click();

  // A list edit is previewed too; Cancel keeps what was typed, and at 1280 px the box fits the window.
  await page.setViewportSize({ width: 1280, height: 800 });
  const blocked = page.getByRole("region", { name: "Blocked names" });
  await blocked.getByLabel("Skill name to block").fill("git-helper");
  await blocked.getByRole("button", { name: "Block" }).click();
  await expect(dialog.getByTestId("policy-preview")).toHaveText("1 skill becomes inactive (blocked by the policy): git-helper");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(blocked.getByLabel("Skill name to block")).toHaveValue("git-helper");
  await expect(page.getByTestId("blocked-names")).not.toContainText("git-helper");
});

test("allowing reserved words takes claude-helper's error out of the editor's problem list, and off puts it back", async ({ page }) => {
  const dir = path.join(E2E_HOME, "demo-project", ".omniforge", "skills", "claude-helper");
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "SKILL.md"), "---\nname: claude-helper\ndescription: Drafts replies to support tickets. Use when a ticket needs an answer.\n---\n# Replies\n\nRead the ticket, then draft a reply.\n");
  await signInAsAdmin(page);
  const allow = page.getByRole("region", { name: "Forbidden names" }).getByLabel("Allow reserved words in names");
  try {
    await page.goto("/skills/project/claude-helper");
    const panel = page.getByTestId("diagnostics");
    await expect(panel).toContainText("1 error");
    await expect(panel).toContainText("name.reserved");

    await page.goto("/policies");
    await expect(allow).not.toBeChecked();
    // The switch shows the stored policy: it turns once the previewed change is applied.
    await allow.click();
    await applyPolicyChange(page);
    await expect(allow).toBeChecked();
    await page.reload();
    await expect(allow).toBeChecked();

    await page.goto("/skills/project/claude-helper");
    // The doctor's own note on vendor words stays (info): the name is no error any more.
    await expect(panel).toContainText("0 errors");
    await expect(panel).not.toContainText("name.reserved");
  } finally {
    await page.goto("/policies");
    if (await allow.isChecked()) {
      await allow.click();
      await applyPolicyChange(page);
    }
    await expect(allow).not.toBeChecked();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
