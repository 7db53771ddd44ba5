// Skills from git as an administrator uses them (#39): a source added in the console from a bare repository on disk
// (file:// URL, made here with git), its skills listed with their repository and commit, an update reviewed with
// approvals of source updates switched on, and one change approved after reading its diff.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { expect, test } from "./page-errors";
import { applyPolicyChange, signInAsAdmin } from "./helpers";
import { E2E_HOME } from "../playwright.config";
import { skillMd, TestRepo } from "../server/runtime/sources/test-support/sources";

const stamp = Date.now().toString(36);
const skill = `invoice-${stamp}`;
const source = `org-${stamp}`;

test("an admin adds a git source, sees its skills' provenance, and approves an update after reading its diff", async ({ page }) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "e2e-sources-"));
  try {
    const repo = new TestRepo(dir);
    repo.write({ [`skills/${skill}/SKILL.md`]: skillMd(skill, "Checks invoices. Use for invoice files.") });
    const first = repo.commit("one skill");

    await signInAsAdmin(page);
    await page.goto("/sources");
    await page.getByLabel("Source name").fill(source);
    await page.getByLabel("Repository URL").fill(`file://${repo.bare}`);
    await page.getByLabel("Folder in the repository").fill("skills");
    await page.getByRole("button", { name: "Add source" }).click();
    const row = page.getByTestId(`source-row-${source}`);
    await expect(row).toContainText(first.slice(0, 12));
    await expect(page.getByTestId(`source-behind-${source}`)).toHaveText("up to date");

    await page.goto(`/skills`);
    await page.getByLabel("Search skills").fill(skill);
    await expect(page.getByTestId(`skill-row-enterprise-${skill}`).getByTestId("skill-provenance")).toContainText(`${repo.bare} · skills @ ${first.slice(0, 12)}`);
    await page.getByRole("link", { name: skill }).click();
    await expect(page.getByTestId("source-banner")).toContainText("From git: change it there.");
    await expect(page.getByRole("button", { name: "Copy to my layer" })).toBeVisible();

    await page.goto("/policies");
    const toggle = page.getByLabel("Require approval for git source updates");
    await toggle.click();
    await applyPolicyChange(page);
    await expect(toggle).toBeChecked();

    repo.write({ [`skills/${skill}/SKILL.md`]: skillMd(skill, "Checks and files invoices. Use for invoice files.") });
    const second = repo.commit("invoices filed");
    await page.goto("/sources");
    await expect(page.getByTestId(`source-behind-${source}`)).toHaveText("1 commit behind");
    await page.getByRole("button", { name: `Update ${source}` }).click();
    await expect(page.getByTestId("sources-notice")).toContainText("1 changed skill to review");
    await expect(row).toContainText(first.slice(0, 12));

    const review = page.getByTestId(`source-review-${source}-${skill}`);
    await review.locator("summary").click();
    await expect(review.getByTestId("source-review-diff")).toContainText("+description: Checks and files invoices.");
    await expect(review.getByTestId("source-review-diff")).toContainText("-description: Checks invoices.");
    await review.getByRole("button", { name: `Approve ${skill} from ${source}` }).click();
    await expect(row).toContainText(second.slice(0, 12));

    await page.goto(`/skills`);
    await page.getByLabel("Search skills").fill(skill);
    await expect(page.getByTestId(`skill-row-enterprise-${skill}`)).toContainText("Checks and files invoices.");

    // Leave the shared e2e home as it was: approvals of source updates off, the source gone.
    await page.goto("/policies");
    await page.getByLabel("Require approval for git source updates").click();
    await applyPolicyChange(page);
    await expect(page.getByLabel("Require approval for git source updates")).not.toBeChecked();
    await page.goto("/sources");
    page.once("dialog", (d) => void d.accept());
    await page.getByRole("button", { name: `Remove ${source}` }).click();
    await expect(row).toHaveCount(0);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("after `omniforge publish marketplace` the Sources page says when and where, and which skills changed since", async ({ page }) => {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), "e2e-marketplace-"));
  const name = `published-${stamp}`;
  const folder = path.join(E2E_HOME, "enterprise", "skills", name);
  try {
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, "SKILL.md"), skillMd(name, "Writes the weekly report. Use when asked for the weekly report."));
    const bin = path.resolve(import.meta.dirname, "..", "bin", "omniforge.mjs");
    const env = { ...process.env, OMNIFORGE_HOME: "", OMNIFORGE_CACHE_DIR: "off" };
    const said = execFileSync(process.execPath, [bin, "publish", "marketplace", "--out", out, "--home", E2E_HOME, "--project", path.join(E2E_HOME, "demo-project")], { env, encoding: "utf8" });
    expect(said).toContain(`marketplace omniforge written to ${out}`);

    await signInAsAdmin(page);
    await page.goto("/sources");
    await expect(page.getByTestId("publish-last")).toContainText(out);
    await expect(page.getByTestId("publish-since")).toHaveText("Nothing changed since: the marketplace has what the catalog serves.");

    fs.appendFileSync(path.join(folder, "SKILL.md"), "\nAlso list the open risks.\n");
    await page.reload();
    await expect(page.getByTestId("publish-since")).toContainText(`1 skill changed since: ${name} (enterprise). Publish again to pass it on.`);
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
    fs.rmSync(out, { recursive: true, force: true });
  }
});
