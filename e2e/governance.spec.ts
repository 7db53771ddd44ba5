// Governance as an administrator and an author use it: block a skill, approve a skill with a script, ask
// "what if" for another environment, deploy with a preview. Skills are written into the e2e data home's layer
// folders on disk, as a git pull or another editor would; the console's watcher picks them up.
import fs from "node:fs";
import path from "node:path";
import { type Page } from "@playwright/test";
import { expect, test } from "./page-errors";
import { E2E_HOME } from "../playwright.config";
import { applyPolicyChange, createUserViaUi, signIn, signInAsAdmin, uniqueEmail } from "./helpers";

const PROJECT_SKILLS = path.join(E2E_HOME, "demo-project", ".omniforge", "skills");
const ENTERPRISE_SKILLS = path.join(E2E_HOME, "enterprise", "skills");
const stamp = Date.now().toString(36);

function writeSkill(root: string, name: string, opts: { extra?: string; body?: string; scripts?: Record<string, string> } = {}) {
  const dir = path.join(root, name);
  fs.mkdirSync(dir, { recursive: true });
  for (const [file, content] of Object.entries(opts.scripts ?? {})) {
    fs.mkdirSync(path.join(dir, "scripts"), { recursive: true });
    fs.writeFileSync(path.join(dir, "scripts", file), content, { mode: 0o755 });
  }
  fs.writeFileSync(
    path.join(dir, "SKILL.md"),
    `---\nname: ${name}\ndescription: ${name} for the governance journey. Use when testing governance.\n${opts.extra ?? ""}---\n${opts.body ?? `# ${name}\n\nFollow these steps.\n`}`,
  );
}

/** What an agent of this user would be offered: the listing the playground shows (tRPC, same resolution). */
async function agentListing(page: Page, whatIf: Record<string, string> = {}): Promise<string[]> {
  const res = await page.request.get(`/api/trpc/layers.effective?input=${encodeURIComponent(JSON.stringify({ json: whatIf }))}`);
  expect(res.status()).toBe(200);
  const body = (await res.json()) as { result: { data: { json: { name: string }[] } } };
  return body.result.data.json.map((s) => s.name);
}

/** The playground's own listing for a session (what its agent is shown), created through tRPC as the page does. */
async function playgroundSession(page: Page): Promise<string> {
  const res = await page.request.post("/api/trpc/playground.create", { data: { json: { title: "governance check" } } });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { result: { data: { json: { id: string } } } }).result.data.json.id;
}
async function playgroundListing(page: Page, sessionId: string): Promise<string> {
  const res = await page.request.get(`/api/trpc/playground.listing?input=${encodeURIComponent(JSON.stringify({ json: { sessionId } }))}`);
  expect(res.status()).toBe(200);
  return ((await res.json()) as { result: { data: { json: { text: string } } } }).result.data.json.text;
}

async function openRow(page: Page, name: string) {
  await page.goto("/layers");
  await page.getByLabel("Search skills by name").fill(name);
  await expect(page.getByTestId(`layer-row-${name}`)).toBeVisible();
}

/** Reloads the layers view until the cell shows the status (the watcher needs a moment after a disk write). */
async function expectCell(page: Page, name: string, layer: string, text: string) {
  await expect(async () => {
    await openRow(page, name);
    await expect(page.getByTestId(`cell-${name}-${layer}`)).toContainText(text, { timeout: 2000 });
  }).toPass({ timeout: 20_000 });
}

test("an admin blocks a project skill: the layers view and the agent listing no longer offer it", async ({ page }) => {
  await signInAsAdmin(page);
  await expectCell(page, "git-helper", "project", "active");
  expect(await agentListing(page)).toContain("git-helper");
  const session = await playgroundSession(page);
  expect(await playgroundListing(page, session)).toContain("git-helper");

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Policies" }).click();
  await page.getByLabel("Skill name to block").fill("git-helper");
  await page.getByRole("button", { name: "Block", exact: true }).click();
  expect(await applyPolicyChange(page)).toContain("1 skill becomes inactive (blocked by the policy): git-helper");
  await expect(page.getByTestId("blocked-names")).toContainText("git-helper");

  await openRow(page, "git-helper");
  await expect(page.getByTestId("cell-git-helper-project")).toContainText("blocked");
  await expect(page.getByTestId("active-git-helper")).toHaveText("nothing active");
  await page.getByTestId("layer-row-git-helper").click();
  await expect(page.getByTestId("resolution-chain")).toContainText('the name "git-helper" is on the block list');
  expect(await agentListing(page)).not.toContain("git-helper");
  expect(await playgroundListing(page, session)).not.toContain("git-helper");
  expect(await playgroundListing(page, session)).toContain("release-notes");

  // Unblocking gives it back.
  await page.goto("/policies");
  await page.getByRole("button", { name: "Unblock git-helper" }).click();
  expect(await applyPolicyChange(page)).toContain("1 skill becomes active: git-helper");
  await expect(page.getByTestId("blocked-names")).not.toContainText("git-helper");
  expect(await agentListing(page)).toContain("git-helper");
});

test("an author's new skill with a script waits for approval and becomes active once an admin approves it", async ({ browser }) => {
  const name = `lint-report-${stamp}`;
  const adminCtx = await browser.newContext();
  const admin = await adminCtx.newPage();
  await signInAsAdmin(admin);
  await admin.goto("/policies");
  const toggle = admin.getByLabel("Require approval for skills with scripts");
  await toggle.click();
  await applyPolicyChange(admin);
  await expect(toggle).toBeChecked();

  const authorEmail = uniqueEmail("author");
  await createUserViaUi(admin, authorEmail, "author", "author-pass-123");
  const authorCtx = await browser.newContext();
  const author = await authorCtx.newPage();
  await signIn(author, authorEmail, "author-pass-123");

  // The author adds a skill with a script to the project.
  writeSkill(PROJECT_SKILLS, name, { scripts: { "lint.sh": "#!/bin/sh\necho lint ok\n" } });
  await expectCell(author, name, "project", "pending approval");
  await expect(author.getByTestId(`active-${name}`)).toHaveText("nothing active");
  expect(await agentListing(author)).not.toContain(name);

  // A project variant of an enterprise skill waits too, and says that approving it would not make it active.
  const shadowed = `shadowed-lint-${stamp}`;
  writeSkill(ENTERPRISE_SKILLS, shadowed);
  writeSkill(PROJECT_SKILLS, shadowed, { scripts: { "lint.sh": "#!/bin/sh\necho variant\n" } });

  // The admin sees it waiting and approves it with a comment.
  await admin.goto("/policies");
  const shadowedRow = admin.getByTestId(`approval-row-${shadowed}`);
  await expect(shadowedRow.getByTestId("approval-shadowed")).toContainText("Shadowed: the enterprise definition");
  // Its review compares it with the enterprise text agents get now, line by line.
  await shadowedRow.getByText("What changes").click();
  await expect(shadowedRow.getByTestId("approval-review")).toContainText("Agents get the enterprise definition now");
  await expect(shadowedRow.getByTestId("approval-text")).toContainText("--- enterprise/SKILL.md");
  const row = admin.getByTestId(`approval-row-${name}`);
  await expect(row).toBeVisible();
  await expect(row).toContainText("has scripts");
  await expect(row.getByTestId("approval-shadowed")).toHaveCount(0);
  // Before deciding, the admin reads what would become active: nothing is now, so the whole text (#41 item 3).
  await row.getByText("What changes").click();
  const review = row.getByTestId("approval-review");
  await expect(review).toContainText("Nothing of this name is active now");
  await expect(review.getByTestId("approval-text")).toContainText(`name: ${name}`);
  await expect(review.getByTestId("approval-findings")).toContainText("Doctor:");
  await row.getByLabel(`Comment on ${name}`).fill("script reviewed: read-only lint");
  await row.getByRole("button", { name: "Approve" }).click();
  await expect(row).toHaveCount(0);

  await expectCell(author, name, "project", "active");
  expect(await agentListing(author)).toContain(name);

  // An edit after the approval needs a new one.
  fs.appendFileSync(path.join(PROJECT_SKILLS, name, "SKILL.md"), "\nAlso run the formatter.\n");
  await expectCell(author, name, "project", "pending approval");
  expect(await agentListing(author)).not.toContain(name);

  await admin.goto("/policies");
  await admin.getByLabel("Require approval for skills with scripts").click();
  await applyPolicyChange(admin);
  await expect(admin.getByLabel("Require approval for skills with scripts")).not.toBeChecked();
  await adminCtx.close();
  await authorCtx.close();
});

test("a what-if for another environment shows a different active definition, with the chain and a diff", async ({ page }) => {
  const name = `data-handling-${stamp}`;
  writeSkill(ENTERPRISE_SKILLS, name, { extra: "priority: 0\nscope:\n  environments: [production]\n", body: "# Compliance\n\nCRITICAL: follow the data rules.\n" });
  writeSkill(PROJECT_SKILLS, name, { extra: "priority: 1000\nscope:\n  environments: [staging]\n", body: "# Team variant\n\nStaging shortcuts.\n" });
  await signInAsAdmin(page);
  // No environment given and no default set: both definitions are scoped, so neither is active (#14 §4).
  await expectCell(page, name, "project", "out of scope");
  await expect(page.getByTestId(`layer-row-${name}`)).toContainText("2 definitions");
  await expect(page.getByTestId(`active-${name}`)).toHaveText("nothing active");
  // priority: 1000 on the project copy cannot beat the enterprise one: the view says why.
  await expect(page.getByTestId("layers-rules")).toContainText("Priority orders definitions of one name only inside one layer");

  const whatIf = page.getByRole("form", { name: "What-if" });
  await whatIf.getByLabel("Environment").fill("staging");
  await whatIf.getByRole("button", { name: "Apply what-if" }).click();
  await expect(page.getByTestId("whatif-banner")).toContainText("environment staging");
  await expect(page.getByTestId(`active-${name}`)).toHaveText("project");
  await expect(page.getByTestId(`cell-${name}-enterprise`)).toContainText("out of scope");

  await whatIf.getByLabel("Environment").fill("production");
  await whatIf.getByRole("button", { name: "Apply what-if" }).click();
  await expect(page.getByTestId(`active-${name}`)).toHaveText("enterprise");
  await expect(page.getByTestId(`cell-${name}-project`)).toContainText("out of scope");

  // The chain explains it, highest first, and the two SKILL.md files can be compared.
  await page.getByTestId(`layer-row-${name}`).click();
  const chain = page.getByTestId("resolution-chain");
  await expect(chain.locator("li").first()).toContainText("Enterprise");
  await expect(page.getByTestId("chain-item-project")).toContainText('limited to environments [staging], this context\'s environment is "production"');
  await expect(page.getByTestId("layer-diff").locator(".monaco-diff-editor")).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("layer-diff")).toContainText("Staging shortcuts.");

  // The view is in the URL: a reload (or a shared link) shows the same what-if and the same skill.
  await expect(page).toHaveURL(/environment=production/);
  await expect(page).toHaveURL(new RegExp(`name=${name}`));
  await page.reload();
  await expect(page.getByTestId("whatif-banner")).toContainText("environment production");
  await expect(page.getByTestId(`active-${name}`)).toHaveText("enterprise");
  await expect(page.getByTestId("chain-item-project")).toContainText("out of scope");

  // Leaving Layers with the comparison shown throws no page error (#41; the fixture fails the test on one).
  await expect(page.getByTestId("layer-diff").locator(".monaco-diff-editor")).toBeVisible({ timeout: 30_000 });
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Skills" }).click();
  await expect(page).toHaveURL(/\/skills(\?|$)/);
});

test("an admin deploys a project skill to the enterprise layer after seeing which contexts change", async ({ page }) => {
  const name = `release-check-${stamp}`;
  writeSkill(PROJECT_SKILLS, name, { extra: "allowed-tools: Read\n", body: "# Release check\n\n```bash\ncurl -s https://example.com/releases\n```\n" });
  await signInAsAdmin(page);
  await expectCell(page, name, "project", "active");
  // Opened from a link to the skill, the panel asks for a preview the server can answer, not a copy of the project
  // definition onto itself (the target was fixed before the page knew the targets: a 400 as the panel opened, #41).
  await page.goto(`/layers?name=${name}`);
  const refused: string[] = [];
  page.on("response", (r) => {
    if (r.url().includes("layers.deployPreview") && r.status() >= 400) refused.push(`${r.status()} ${r.url()}`);
  });
  await page.getByTestId("deploy-open").click();
  const panel = page.getByTestId("deploy-panel");
  await expect(panel.getByTestId("deploy-preview")).toBeVisible();
  await expect(panel.getByLabel("Target layer")).not.toHaveValue("project");
  expect(refused).toEqual([]);
  await panel.getByLabel("Target layer").selectOption("enterprise");
  const preview = panel.getByTestId("deploy-preview");
  await expect(preview).toContainText("contexts get a different definition");
  await expect(preview.locator("tr", { hasText: "default" })).toContainText("changes");
  expect(fs.existsSync(path.join(ENTERPRISE_SKILLS, name))).toBe(false);
  // The doctor's high finding shows before the deploy, which then needs "deploy anyway" (#41 item 1).
  await expect(preview.getByTestId("deploy-findings")).toContainText("tools.missing");
  const deploy = panel.getByRole("button", { name: "Deploy anyway to enterprise" });
  await expect(deploy).toBeDisabled();
  await panel.getByLabel(/Deploy anyway, with 1 high finding/).check();
  await deploy.click();
  await expect(panel.getByTestId("deploy-done")).toContainText("changes from the project definition");
  expect(fs.existsSync(path.join(ENTERPRISE_SKILLS, name, "SKILL.md"))).toBe(true);
  // The comparison lays its lines out at its width, not one character per line until a reload (#41 item 6): the
  // heading is one visual line on each side, also when a second deploy (to personal) makes the page build the
  // comparison anew, long after the first one measured the fonts.
  const diff = page.getByTestId("layer-diff");
  const headingLines = async () => {
    await expect(diff.locator(".monaco-diff-editor")).toBeVisible({ timeout: 30_000 });
    for (const side of [".original", ".modified"]) {
      await expect(diff.locator(`${side} .view-line`).filter({ hasText: /^#\sRelease\scheck$/ })).toHaveCount(1);
      // Wrapped at the side's own width: no line runs past its right edge (the long description wraps on both sides).
      const overflow = await diff.locator(`${side}`).first().evaluate((el) => {
        const edge = el.querySelector(".overflow-guard")!.getBoundingClientRect().right;
        return Math.max(...[...el.querySelectorAll(".view-line > span")].map((l) => l.getBoundingClientRect().right)) - edge;
      });
      expect(overflow, `${side}: no line runs past the edge`).toBeLessThanOrEqual(0);
    }
  };
  await headingLines();
  // The matrix shows a page of names: find this one (the link opened the skill, not a search).
  await page.getByLabel("Search skills by name").fill(name);
  await expect(page.getByTestId(`active-${name}`)).toHaveText("enterprise");
  await expect(page.getByTestId(`cell-${name}-project`)).toContainText("shadowed");
  await panel.getByLabel("Target layer").selectOption("personal");
  await panel.getByRole("button", { name: "Deploy anyway to personal" }).click();
  await expect(page.getByTestId(`cell-${name}-personal`)).toContainText("shadowed");
  await headingLines();
});

test("editing a definition agents do not get says which one they get and why; the doctor lists it as not examined (#41 item 8)", async ({ page }) => {
  const name = `house-rules-${stamp}`;
  writeSkill(ENTERPRISE_SKILLS, name, { body: "# House rules\n\nThe company's rules.\n" });
  writeSkill(PROJECT_SKILLS, name, { body: "# House rules\n\nThe team's variant.\n" });
  await signInAsAdmin(page);
  await expectCell(page, name, "project", "shadowed");
  await page.goto(`/skills/project/${name}`);
  await expect(page.getByTestId("served-instead")).toContainText("Agents get the enterprise definition: enterprise outranks project");
  // The definition agents do get says nothing.
  await page.goto(`/skills/enterprise/${name}`);
  await expect(page.getByTestId("skill-status")).toHaveText("active");
  await expect(page.getByTestId("served-instead")).toHaveCount(0);

  // Blocked: no definition is served, said in words.
  await page.goto("/policies");
  await page.getByLabel("Skill name to block").fill(name);
  await page.getByRole("button", { name: "Block", exact: true }).click();
  await applyPolicyChange(page);
  await page.goto(`/skills/project/${name}`);
  await expect(page.getByTestId("served-instead")).toContainText(`Blocked by policy: the name "${name}" is on the block list (no definition of this name is served)`);

  // The doctor's report names both definitions it left out, with why.
  await page.goto("/doctor");
  const skipped = page.getByTestId("doctor-skipped");
  await expect(skipped.getByRole("listitem").filter({ hasText: `${name} (project, blocked)` })).toBeVisible();
  await expect(skipped.getByRole("listitem").filter({ hasText: `${name} (enterprise, blocked)` })).toBeVisible();
  await page.goto("/policies");
  await page.getByRole("button", { name: `Unblock ${name}` }).click();
  await applyPolicyChange(page);
  await page.goto("/doctor");
  await expect(page.getByTestId("doctor-skipped").getByRole("listitem").filter({ hasText: `${name} (project, shadowed)` })).toContainText("shadowed by the enterprise definition");
});
