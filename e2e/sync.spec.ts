// Sync out, end to end: an admin makes a token on the Access tokens page, `omniforge sync` (the real bin) brings
// the catalog from the running console into a throw-away HOME for two agents, the admin blocks a skill, and the
// next sync removes it while a skill written by hand stays. The lock file, the dry-run plan and the console's
// "where is this deployed" are checked along the way.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { type Page } from "@playwright/test";
import { expect, test } from "./page-errors";
import { applyPolicyChange, signInAsAdmin } from "./helpers";

const run = promisify(execFile);

/** Takes release-notes off the block list, waiting for the list to load first (a rerun may find it blocked). */
async function unblockReleaseNotes(page: Page) {
  await page.goto("/policies");
  await expect(page.getByTestId("blocked-names")).toBeVisible();
  const unblock = page.getByRole("button", { name: "Unblock release-notes" });
  if (await unblock.count()) {
    await unblock.click();
    await applyPolicyChange(page);
  }
  await expect(page.getByTestId("blocked-names")).not.toContainText("release-notes");
}
const ROOT = path.resolve(import.meta.dirname, "..");

test("a token from the UI, a sync into two agents' folders, a block, and the next sync removes only that skill", async ({ page, baseURL }) => {
  test.setTimeout(180_000);
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "omniforge-e2e-sync-"));
  const claude = path.join(home, ".claude", "skills");
  const gemini = path.join(home, ".gemini", "skills");
  const sync = async (...extra: string[]) => {
    const { stdout } = await run(
      process.execPath,
      ["bin/omniforge.mjs", "sync", "--from", baseURL!, "--token", token, "--agent", "claude-code", "--agent", "gemini", "--scope", "user", ...extra],
      { cwd: ROOT, env: { PATH: process.env.PATH, HOME: home } as unknown as NodeJS.ProcessEnv, timeout: 120_000 },
    );
    return stdout;
  };
  let token = "";
  try {
    await signInAsAdmin(page);
    await unblockReleaseNotes(page);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Tokens" }).click();
    const form = page.getByRole("form", { name: "Create token" });
    await form.getByLabel("Token name").fill(`e2e laptop ${Date.now()}`);
    await form.getByRole("button", { name: "Create token" }).click();
    token = (await page.getByTestId("token-value").textContent())!.trim();
    expect(token).toMatch(/^omf_/);

    // A skill the user wrote by hand, with a name the console also has: sync must leave it alone.
    fs.mkdirSync(path.join(claude, "git-helper"), { recursive: true });
    fs.writeFileSync(path.join(claude, "git-helper", "SKILL.md"), "---\nname: git-helper\ndescription: my own\n---\nHand-written.\n");

    const plan = await sync("--dry-run");
    expect(plan).toContain("as admin@omniforge.local (user scope), dry run");
    expect(plan).toMatch(/\+ add\s+release-notes/);
    expect(plan).toMatch(/! clash\s+git-helper\s+\(a folder omniforge sync did not write; left alone\)/);
    expect(plan).toContain("dry run: nothing written");
    expect(fs.existsSync(gemini)).toBe(false);

    await sync();
    for (const f of [claude, gemini]) expect(fs.existsSync(path.join(f, "release-notes", "SKILL.md"))).toBe(true);
    const lock = JSON.parse(fs.readFileSync(path.join(gemini, ".omniforge-sync.json"), "utf8"));
    expect(lock.skills["release-notes"]).toMatchObject({ source: baseURL, digest: expect.stringMatching(/^sha256:/) });
    expect(lock.skills["git-helper"]).toMatchObject({ source: baseURL, digest: expect.stringMatching(/^sha256:/) });
    expect(JSON.parse(fs.readFileSync(path.join(claude, ".omniforge-sync.json"), "utf8")).skills["git-helper"]).toBeUndefined();

    // The console knows where release-notes now is.
    await page.goto("/skills/project/release-notes");
    await expect(page.getByTestId("skill-deployments")).toContainText(os.hostname());
    await expect(page.getByTestId("skill-deployments")).toContainText("gemini (user)");

    await page.goto("/policies");
    await page.getByLabel("Skill name to block").fill("release-notes");
    await page.getByRole("button", { name: "Block", exact: true }).click();
    await applyPolicyChange(page);
    await expect(page.getByTestId("blocked-names")).toContainText("release-notes");

    const out = await sync();
    expect(out).toMatch(/- remove\s+release-notes/);
    for (const f of [claude, gemini]) expect(fs.existsSync(path.join(f, "release-notes"))).toBe(false);
    expect(fs.readFileSync(path.join(claude, "git-helper", "SKILL.md"), "utf8")).toContain("Hand-written.");
    expect(fs.existsSync(path.join(gemini, "git-helper", "SKILL.md"))).toBe(true);
    await unblockReleaseNotes(page);
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
});
