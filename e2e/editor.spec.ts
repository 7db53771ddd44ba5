// The skill editor as an author uses it: create from a template, live diagnostics while typing, save, versions and
// their diff, restore; two people editing the same file; a viewer reads but cannot save; an administrator reviews a
// user's personal skill. Every browser request must stay on this machine (Monaco from the local package).
// Files, drafts and deleting a skill are in editor-files.spec.ts, .zip import and export in editor-zip.spec.ts.
import { expect, test } from "./page-errors";
import { appendText, createSkill, monaco, newUser, replaceText, stamp, validText } from "./editor-helpers";
import { applyPolicyChange, signInAsAdmin } from "./helpers";

test("an author creates a skill, sees live diagnostics, saves twice, compares versions and restores the first", async ({ browser }) => {
  const { ctx, page, external } = await newUser(browser, "author");
  const name = `notes-${stamp}`;
  await createSkill(page, name);

  // Invalid frontmatter: the validator's code and message show up as a marker while typing.
  await replaceText(page, `---\nname: Not_Valid\ndescription: Notes for ${name}. Use when testing the editor.\n---\n\n# body\n`);
  await expect(page.getByTestId("diagnostics")).toContainText("name.", { timeout: 10_000 });
  await expect(page.getByTestId("diagnostics")).toContainText(/[1-9]\d* errors/);
  await expect(monaco(page).locator(".squiggly-error").first()).toBeAttached();

  // Fixed: no errors; preview and agent view follow the unsaved text.
  await replaceText(page, validText(name));
  await expect(page.getByTestId("diagnostics")).toContainText("0 errors");
  await expect(page.getByTestId("preview")).toContainText("First body line.");
  await page.getByRole("tab", { name: "Agent view" }).click();
  // What each mode sends, from the runtime's own code, for the saved skill, with token counts.
  await expect(page.getByTestId("disclosure-listing")).toContainText(`"${name}": Notes for ${name}.`);
  await expect(page.getByTestId("disclosure-activation")).toContainText(`Skill '${name}' activated. Base path: `);
  await expect(page.getByTestId("disclosure-listing-tokens")).toContainText(/~\d+ tokens/);
  await page.getByRole("tab", { name: "Prompt mode" }).click();
  await expect(page.getByTestId("disclosure-listing")).toContainText(`<location>`);
  await page.getByRole("tab", { name: "Orchestrated mode" }).click();
  await expect(page.getByTestId("disclosure-injected")).toContainText(`<skill name="${name}"`);
  await expect(page.getByTestId("disclosure")).toContainText("Showing the saved SKILL.md");
  await expect(page.getByTestId("costs")).toContainText("2 · body on activation");

  // Unsaved changes: leaving through a console link asks first.
  page.once("dialog", (d) => void d.dismiss());
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Skills" }).click();
  await expect(page).toHaveURL(new RegExp(`/skills/project/${name}`));

  // Save with Ctrl/Cmd+S, then edit and save with the button.
  await monaco(page).locator(".view-lines").click();
  await page.keyboard.press("ControlOrMeta+s");
  await expect(page.getByTestId("editor-notice")).toContainText("Saved SKILL.md");
  await appendText(page, "\nSecondEditLine\n");
  await page.getByLabel("Change note").fill("second edit");
  await page.getByRole("button", { name: /^Save/ }).click();
  await expect(page.getByTestId("editor-notice")).toContainText("Saved SKILL.md");

  // History: create + two saves; diff of the two saves.
  await page.getByRole("tab", { name: /History/ }).click();
  const history = page.getByTestId("history");
  await expect(history.getByTestId("version-3")).toContainText("second edit");
  await expect(history.getByTestId("version-1")).toContainText("create");
  await history.getByTestId("version-2").getByRole("checkbox").check();
  await history.getByTestId("version-3").getByRole("checkbox").check();
  await history.getByRole("button", { name: "Compare selected" }).click();
  const compare = page.getByTestId("compare-view");
  await expect(compare.locator(".monaco-diff-editor")).toBeVisible();
  await expect(compare).toContainText("SecondEditLine");

  // Restore the first version with the comparison still open (#41: it threw a page error): the template text is
  // back, as a fourth version.
  await history.getByTestId("version-1").getByRole("button", { name: "Restore" }).click();
  await history.getByTestId("version-1").getByRole("button", { name: "Confirm restore" }).click();
  // The notice names the version by the number the history shows beside it.
  const restoredNumber = (await history.getByTestId("version-1").getByTestId("version-number").textContent())!;
  await expect(page.getByTestId("editor-notice")).toContainText(`Restored SKILL.md from version ${restoredNumber} (a new version).`);
  await expect(monaco(page)).toContainText("When to use");
  await expect(history.getByTestId("version-4")).toContainText("restore");

  // The list shows it, with who changed it last.
  await page.goto("/skills");
  await page.getByLabel("Search skills").fill(name);
  await expect(page.getByTestId(`skill-row-project-${name}`)).toContainText("active");
  await expect(page.getByTestId(`skill-row-project-${name}`)).toContainText("@example.test");
  expect(external, "requests that left localhost").toEqual([]);
  await ctx.close();
});

test("two people edit the same skill: the one who saves second meets the conflict view with both texts", async ({ browser }) => {
  const a = await newUser(browser, "author");
  const b = await newUser(browser, "author");
  const name = `shared-${stamp}`;
  await createSkill(a.page, name);
  await b.page.goto(`/skills/project/${name}`);
  await expect(monaco(b.page)).toContainText(`name: ${name}`);

  // Both are editing before A saves. (An untouched buffer would quietly take A's text from the disk watch.)
  await appendText(b.page, "\nBetaWasHere\n");
  await appendText(a.page, "\nAlphaWasHere\n");
  await a.page.getByRole("button", { name: /^Save/ }).click();
  await expect(a.page.getByTestId("editor-notice")).toContainText("Saved");

  // B meets the conflict either at once (the editor watches the disk) or when saving, whichever comes first.
  const conflict = b.page.getByTestId("conflict-view");
  const save = b.page.getByRole("button", { name: /^Save/ });
  await expect(async () => {
    if (!(await conflict.isVisible()) && (await save.isEnabled())) await save.click({ timeout: 1_000 });
    await expect(conflict).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  await expect(conflict).toContainText("changed on disk");
  await expect(conflict.locator(".monaco-diff-editor")).toBeVisible();
  await b.page.getByText("Unified diff").click();
  await expect(b.page.getByTestId("conflict-diff")).toContainText("-AlphaWasHere");
  await expect(b.page.getByTestId("conflict-diff")).toContainText("+BetaWasHere");

  // Nothing was overwritten until B decides.
  await a.page.reload();
  await expect(monaco(a.page)).toContainText("AlphaWasHere");
  await expect(monaco(a.page)).not.toContainText("BetaWasHere");
  await b.page.getByRole("button", { name: "Save mine over theirs" }).click();
  await expect(b.page.getByTestId("editor-notice")).toContainText("Saved");
  expect([...a.external, ...b.external]).toEqual([]);
  await a.ctx.close();
  await b.ctx.close();
});

test("a viewer reads a skill but sees no save button, and a direct save call is refused", async ({ browser }) => {
  const author = await newUser(browser, "author");
  const name = `readonly-${stamp}`;
  await createSkill(author.page, name);
  await author.ctx.close();

  const { ctx, page, external } = await newUser(browser, "viewer");
  await page.goto("/skills");
  await expect(page.getByRole("button", { name: "New skill" })).toHaveCount(0);
  await page.goto(`/skills/project/${name}`);
  await expect(monaco(page)).toContainText(`name: ${name}`, { timeout: 30_000 });
  await expect(page.getByRole("button", { name: /^Save/ })).toHaveCount(0);
  await expect(page.getByText("read only")).toBeVisible();

  const file = await page.request.get(`/api/trpc/skill.readFile?input=${encodeURIComponent(JSON.stringify({ json: { ref: { layer: "project", skill: name }, path: "SKILL.md" } }))}`);
  expect(file.status()).toBe(200);
  const digest = ((await file.json()) as { result: { data: { json: { digest: string } } } }).result.data.json.digest;
  const res = await page.request.post("/api/trpc/skill.save", {
    data: { json: { ref: { layer: "project", skill: name }, path: "SKILL.md", text: "pwned", baseDigest: digest } },
  });
  expect(res.status()).toBe(403);
  await page.reload();
  await expect(monaco(page)).toContainText(`name: ${name}`, { timeout: 30_000 });
  expect(external).toEqual([]);
  await ctx.close();
});

test("an administrator picks a user on the skills list and opens that user's personal skill read-only", async ({ browser }) => {
  const { ctx, page, email } = await newUser(browser, "author");
  const name = `mine-${stamp}`;
  await page.goto("/skills");
  await page.getByRole("button", { name: "New skill" }).click();
  const form = page.getByRole("form", { name: "New skill" });
  await form.getByLabel("Skill name").fill(name);
  await form.getByLabel("Description").fill(`Private notes of ${name}. Use when testing reviews.`);
  await form.getByLabel("Target layer").selectOption("personal");
  await form.getByRole("button", { name: "Create skill" }).click();
  await expect(page).toHaveURL(new RegExp(`/skills/personal/${name}`));
  await expect(monaco(page)).toContainText(`name: ${name}`, { timeout: 30_000 });
  await expect(page.getByTestId("review-banner")).toHaveCount(0);
  await ctx.close();

  const adminCtx = await browser.newContext();
  const admin = await adminCtx.newPage();
  await signInAsAdmin(admin);
  await admin.goto("/skills");
  // Not in the admin's own catalog; listed once the admin picks its owner.
  await admin.getByLabel("Search skills").fill(name);
  await expect(admin.getByTestId(`skill-row-personal-${name}`)).toHaveCount(0);
  await admin.getByLabel("Personal skills of").selectOption({ label: email });
  const row = admin.getByTestId(`skill-row-personal-${name}`);
  await expect(row).toBeVisible();
  await row.getByRole("link", { name }).click();
  await expect(admin).toHaveURL(/owner=/);
  await expect(admin.getByTestId("review-banner")).toContainText(`personal skill of ${email}, read-only`);
  await expect(monaco(admin)).toContainText(`Private notes of ${name}.`, { timeout: 30_000 });
  // Read-only: typing changes nothing.
  await monaco(admin).locator(".view-lines").click();
  await admin.keyboard.insertText("ADMIN-EDIT");
  await expect(monaco(admin)).not.toContainText("ADMIN-EDIT");
  // Every view of the skill stays on that user's skill: Evals and back to Editor keep ?owner= (without it the
  // server would look in the admin's own personal layer and find no such skill).
  const owner = new URL(admin.url()).searchParams.get("owner");
  const ownerNow = () => new URL(admin.url()).searchParams.get("owner");
  await admin.getByRole("tab", { name: "Evals" }).click();
  await expect(admin).toHaveURL(/view=evals/);
  expect(ownerNow()).toBe(owner);
  await expect(admin.getByTestId("evals-view")).toBeVisible();
  await expect(admin.getByRole("heading", { name })).toBeVisible();
  await admin.getByRole("tab", { name: "Editor" }).click();
  await expect(admin).not.toHaveURL(/view=evals/);
  expect(ownerNow()).toBe(owner);
  await expect(admin.getByTestId("review-banner")).toContainText(`personal skill of ${email}, read-only`);
  await expect(monaco(admin)).toContainText(`Private notes of ${name}.`, { timeout: 30_000 });
  // "← Skills" goes back to where the review started: that user's skills, the skill listed again.
  const reviewUrl = admin.url();
  await admin.getByRole("link", { name: "← Skills" }).click();
  await expect(admin).toHaveURL(/\/skills\?owner=/);
  expect(ownerNow()).toBe(owner);
  await expect(admin.getByLabel("Personal skills of")).toHaveValue(owner!);
  await admin.getByLabel("Search skills").fill(name);
  await expect(admin.getByTestId(`skill-row-personal-${name}`)).toBeVisible();
  await admin.goto(reviewUrl);
  // The policy may allow more: then the same skill opens for editing; switched back off afterwards.
  const allow = async (on: boolean) => {
    await admin.goto("/policies");
    const box = admin.getByLabel("Administrators may change users' personal skills");
    if ((await box.isChecked()) !== on) {
      await box.click();
      await applyPolicyChange(admin);
    }
    await expect(box).toBeChecked({ checked: on });
  };
  const editorUrl = admin.url();
  await allow(true);
  await admin.goto(editorUrl);
  await expect(admin.getByTestId("review-banner")).toContainText(`personal skill of ${email}.`);
  await monaco(admin).locator(".view-lines").click();
  await admin.keyboard.insertText("ADMIN-EDIT");
  await expect(monaco(admin)).toContainText("ADMIN-EDIT");
  await allow(false);
  await adminCtx.close();
});
