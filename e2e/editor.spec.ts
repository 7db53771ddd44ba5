// The skill editor as an author uses it: create from a template, live diagnostics while typing, save, versions and
// their diff, restore; two people editing the same file; import a real skill folder as a .zip, export and re-import;
// a viewer reads but cannot save. Every browser request must stay on this machine (Monaco from the local package).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { unzipSync, zipSync, type Zippable } from "fflate";
import { createUserViaUi, signIn, signInAsAdmin, uniqueEmail } from "./helpers";

const stamp = Date.now().toString(36);
const SHARED = process.env.OMNIFORGE_SHARED_DIR ?? path.resolve(import.meta.dirname, "..", "..", "shared");
const REAL_SKILL = path.join(SHARED, "fixtures", "real-skills", "anthropics__skills", "skill-creator");

/** Fails the test if any request of the context leaves localhost. */
function watchRequests(ctx: BrowserContext): string[] {
  const external: string[] = [];
  ctx.on("request", (r) => {
    const u = new URL(r.url());
    if (["data:", "blob:", "about:"].includes(u.protocol)) return;
    if (!["127.0.0.1", "localhost", "[::1]"].includes(u.hostname)) external.push(r.url());
  });
  return external;
}

async function newUser(browser: import("@playwright/test").Browser, role: "author" | "viewer" | "admin"): Promise<{ ctx: BrowserContext; page: Page; email: string; external: string[] }> {
  const adminCtx = await browser.newContext();
  const admin = await adminCtx.newPage();
  await signInAsAdmin(admin);
  const email = uniqueEmail(role);
  await createUserViaUi(admin, email, role, `${role}-pass-123`);
  await adminCtx.close();
  const ctx = await browser.newContext({ acceptDownloads: true });
  const external = watchRequests(ctx);
  const page = await ctx.newPage();
  await signIn(page, email, `${role}-pass-123`);
  return { ctx, page, email, external };
}

const monaco = (page: Page) => page.getByTestId("monaco-host").locator(".monaco-editor").first();

/** Replaces the whole text of the open file, as a person selecting all and typing. */
async function replaceText(page: Page, text: string) {
  await monaco(page).locator(".view-lines").click();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.press("Delete");
  await page.keyboard.insertText(text);
  await page.keyboard.press("Escape");
}

async function appendText(page: Page, text: string) {
  await monaco(page).locator(".view-lines").click();
  await page.keyboard.press("ControlOrMeta+End");
  await page.keyboard.insertText(text);
  await page.keyboard.press("Escape");
}

async function createSkill(page: Page, name: string, template = "Instructions only") {
  await page.goto("/skills");
  await page.getByRole("button", { name: "New skill" }).click();
  const form = page.getByRole("form", { name: "New skill" });
  await form.getByLabel("Skill name").fill("Bad--Name");
  await expect(page.getByTestId("name-check")).toContainText("lowercase");
  await form.getByLabel("Skill name").fill(name);
  await expect(page.getByTestId("name-check")).toContainText("available");
  await form.getByLabel("Description").fill(`Notes for ${name}. Use when testing the editor.`);
  await form.getByLabel("Template").selectOption({ label: template });
  await form.getByRole("button", { name: "Create skill" }).click();
  await expect(page).toHaveURL(new RegExp(`/skills/project/${name}`));
  await expect(monaco(page)).toBeVisible({ timeout: 30_000 });
  await expect(monaco(page)).toContainText(`name: ${name}`);
}

const validText = (name: string, extra = "") => `---\nname: ${name}\ndescription: Notes for ${name}. Use when testing the editor.\n---\n\n# ${name}\n\nFirst body line.\n${extra}`;

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
  await compare.getByRole("button", { name: "Close comparison" }).click();

  // Restore the first version: the template text is back, as a fourth version.
  await history.getByTestId("version-1").getByRole("button", { name: "Restore" }).click();
  await history.getByTestId("version-1").getByRole("button", { name: "Confirm restore" }).click();
  await expect(page.getByTestId("editor-notice")).toContainText("Restored SKILL.md");
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

function zipOfFolder(dir: string, top: string): Buffer {
  const tree: Zippable = {};
  const walk = (abs: string, rel: string) => {
    for (const d of fs.readdirSync(abs, { withFileTypes: true })) {
      const r = rel ? `${rel}/${d.name}` : d.name;
      if (d.isDirectory()) walk(path.join(abs, d.name), r);
      else if (d.isFile()) tree[`${top}/${r}`] = new Uint8Array(fs.readFileSync(path.join(abs, d.name)));
    }
  };
  walk(dir, "");
  return Buffer.from(zipSync(tree));
}

function filesOfZip(zip: Buffer): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(unzipSync(new Uint8Array(zip)))) if (!k.endsWith("/")) out[k] = Buffer.from(v).toString("base64");
  return out;
}

test("import a real skill folder as a .zip, see it listed, export it and re-import it unchanged", async ({ browser }) => {
  let source = REAL_SKILL;
  let folder = "skill-creator";
  if (!fs.existsSync(path.join(REAL_SKILL, "SKILL.md"))) {
    console.warn(`[editor.spec] ${REAL_SKILL} is absent: importing a skill folder written by the test instead`);
    folder = `written-${stamp}`;
    source = fs.mkdtempSync(path.join(os.tmpdir(), "omniforge-e2e-skill-"));
    fs.mkdirSync(path.join(source, "references"));
    fs.writeFileSync(path.join(source, "SKILL.md"), `---\nname: ${folder}\ndescription: Written by the e2e test. Use it to test import.\n---\n\nSee [ref](references/ref.md).\n`);
    fs.writeFileSync(path.join(source, "references", "ref.md"), "# Ref\n");
  }
  const zip = zipOfFolder(source, folder);
  const { ctx, page, external } = await newUser(browser, "author");
  // First import into this new author's personal layer (fresh on every run, so reruns never collide).
  await page.goto("/skills");
  await page.getByRole("button", { name: "Import .zip" }).click();
  const region = page.getByRole("region", { name: "Import skill" });
  await region.getByLabel("Import layer").selectOption("personal");
  await region.getByLabel("Skill archive").setInputFiles({ name: `${folder}.zip`, mimeType: "application/zip", buffer: zip });
  await expect(page.getByTestId("import-report")).toContainText(folder);
  await region.getByRole("button", { name: /^Import/ }).click();
  await expect(page.getByTestId("import-done")).toBeVisible();
  await page.getByLabel("Search skills").fill(folder);
  await expect(page.getByTestId(`skill-row-personal-${folder}`)).toContainText("active");

  // Export: a zip with one top folder named like the skill and the same files.
  await page.getByTestId(`skill-row-personal-${folder}`).getByRole("link").first().click();
  await expect(monaco(page)).toContainText(`name: ${folder}`, { timeout: 30_000 });
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export .zip" }).click()]);
  expect(download.suggestedFilename()).toBe(`${folder}.zip`);
  const exported = fs.readFileSync(await download.path());
  expect(filesOfZip(exported)).toEqual(filesOfZip(zip));

  // Re-import the export into the project layer (under a folder name of this run): same files again.
  const copy = `${folder}-${stamp}`;
  await page.goto("/skills");
  await page.getByRole("button", { name: "Import .zip" }).click();
  await region.getByLabel("Import layer").selectOption("project");
  await region.getByLabel("Import folder name").fill(copy);
  await region.getByLabel("Skill archive").setInputFiles({ name: `${folder}.zip`, mimeType: "application/zip", buffer: exported });
  await expect(page.getByTestId("import-report")).toContainText(copy);
  await region.getByRole("button", { name: /^Import/ }).click();
  await expect(page.getByTestId("import-done")).toBeVisible();
  await page.goto(`/skills/project/${copy}`);
  await expect(monaco(page)).toContainText(`name: ${folder}`, { timeout: 30_000 });
  const [again] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export .zip" }).click()]);
  const strip = (files: Record<string, string>) => Object.fromEntries(Object.entries(files).map(([k, v]) => [k.slice(k.indexOf("/") + 1), v]));
  expect(strip(filesOfZip(fs.readFileSync(await again.path())))).toEqual(strip(filesOfZip(zip)));

  // A zip-slip archive is refused and nothing is written.
  await page.goto("/skills");
  await page.getByRole("button", { name: "Import .zip" }).click();
  const evil = Buffer.from(zipSync({ "evil/SKILL.md": new TextEncoder().encode("---\nname: evil\ndescription: x\n---\n"), "evil/../../pwned.txt": new Uint8Array([1]) }));
  await region.getByLabel("Skill archive").setInputFiles({ name: "evil.zip", mimeType: "application/zip", buffer: evil });
  await expect(page.getByTestId("import-error")).toContainText("zip-slip");
  expect(external).toEqual([]);
  await ctx.close();
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

test("files, preview links, completion, unsaved drafts, and delete then restore of a whole skill", async ({ browser }) => {
  const { ctx, page, external, email } = await newUser(browser, "author");
  const pageErrors: string[] = [];
  page.on("pageerror", (e) => pageErrors.push(e.message));
  page.on("console", (m) => {
    // With the URL: "Failed to load resource: ... 404" alone does not say which request it was.
    if (m.type() === "error") pageErrors.push(`${m.text()} ${m.location().url}`);
  });
  // Unique per repetition too, so --repeat-each (how a flaky run is hunted) creates a new skill each time.
  const name = `files-${stamp}-${test.info().repeatEachIndex}`;
  await createSkill(page, name, "Instructions and a reference file");

  // A link to a reference in the preview opens that file in the editor.
  await page.getByTestId("preview").getByRole("button", { name: "the reference" }).click();
  await expect(monaco(page)).toContainText(`${name} reference`);

  // Add, rename and delete a file in the tree; a path leaving the skill is refused with a message.
  const tree = page.getByTestId("file-tree");
  await tree.getByLabel("New file or folder path").fill("references/extra.md");
  await tree.getByRole("button", { name: "+ File" }).click();
  await expect(page.getByTestId("file-references/extra.md")).toBeVisible();
  await page.getByTestId("file-references/extra.md").click();
  await tree.getByLabel("Rename to").fill("references/renamed.md");
  await tree.getByRole("button", { name: "Rename" }).click();
  await expect(page.getByTestId("file-references/renamed.md")).toBeVisible();
  await expect(page.getByTestId("file-references/extra.md")).toHaveCount(0);
  await page.getByTestId("file-references/renamed.md").click();
  await tree.getByRole("button", { name: "Delete" }).click();
  await tree.getByRole("button", { name: "Confirm" }).click();
  await expect(page.getByTestId("file-references/renamed.md")).toHaveCount(0);
  // A JSON file opens with its own language service (a bundled worker, no CDN).
  await tree.getByLabel("New file or folder path").fill("assets/config.json");
  await tree.getByRole("button", { name: "+ File" }).click();
  await expect(page.getByTestId("file-assets/config.json")).toBeVisible();
  await monaco(page).locator(".view-lines").click();
  await page.keyboard.insertText('{"retries": 3,}');
  await expect(monaco(page).locator(".squiggly-error").first()).toBeAttached({ timeout: 15_000 });
  await tree.getByLabel("New file or folder path").fill("../escape.md");
  await tree.getByRole("button", { name: "+ File" }).click();
  await expect(page.getByTestId("editor-error")).toContainText("leaves the skill folder");

  // Completion offers frontmatter fields while typing a new key.
  await page.getByTestId("file-SKILL.md").click();
  await expect(monaco(page)).toContainText(`name: ${name}`);
  await replaceText(page, `---\nname: ${name}\n`);
  await page.keyboard.type("cont");
  await expect(page.locator(".suggest-widget")).toContainText("context");
  await page.keyboard.press("Escape");
  // Enter in a value is a new line, never a suggestion taken: the text stays exactly as typed.
  await page.keyboard.press("ControlOrMeta+End");
  await page.keyboard.type("\ncolour: red");
  await page.keyboard.press("Enter");
  await page.keyboard.type("description: Reads the colours.");
  await page.keyboard.press("Enter");
  await expect(monaco(page)).toContainText("colour: red");
  await expect(monaco(page)).not.toContainText("Readcon");
  await expect(monaco(page)).toContainText("description: Reads the colours.");
  // Hover help explains a field.
  await monaco(page).locator(".view-line", { hasText: `name: ${name}` }).hover({ position: { x: 8, y: 5 } });
  await expect(page.locator(".monaco-hover").first()).toContainText("1-64 characters");

  // An unsaved edit is kept on the server for its author: another browser, signed in as the same person, offers it.
  const draftSaved = page.waitForResponse((r) => r.url().includes("draft.save") && r.ok());
  await replaceText(page, validText(name, "DraftLine\n"));
  await draftSaved;
  const other = await browser.newContext();
  const page2 = await other.newPage();
  await signIn(page2, email, "author-pass-123");
  await page2.goto(`/skills/project/${name}`);
  await expect(page2.getByTestId("draft-offer")).toContainText("unsaved draft of SKILL.md");
  await expect(monaco(page2)).not.toContainText("DraftLine");
  await page2.getByRole("button", { name: "Restore draft" }).click();
  await expect(page2.getByTestId("editor-notice")).toContainText("Restored your unsaved draft of SKILL.md");
  await expect(monaco(page2)).toContainText("DraftLine");
  await page2.getByRole("button", { name: /^Save/ }).click();
  await expect(page2.getByTestId("editor-notice")).toContainText("Saved SKILL.md");
  await other.close();
  // The live check of the file opened next goes out about when a quick person confirms the delete below; on a slow
  // network it reached the server after the delete and answered 404 (this test's flake in CI). Held back here until
  // the delete is answered (3 s at most), so that order happens every time the page sends it during the delete.
  const slowCheck = (u: URL) => u.pathname.includes("skill.check");
  await page.route(slowCheck, async (route) => {
    await page.waitForResponse((r) => r.url().includes("skill.delete"), { timeout: 3000 }).catch(() => {});
    await route.continue().catch(() => {}); // the page may have gone on meanwhile
  });
  // Saved: the draft is gone, so the first browser opens the file without an offer.
  await page.goto(`/skills/project/${name}`);
  await expect(monaco(page)).toContainText("DraftLine");
  await expect(page.getByTestId("draft-offer")).toHaveCount(0);

  // Delete the whole skill (with confirmation), then restore it from the deleted skills.
  await page.getByRole("button", { name: "Delete…" }).click();
  await page.getByTestId("confirm-delete").getByRole("button", { name: "Delete skill" }).click();
  await expect(page).toHaveURL(/\/skills\?deleted=/);
  await page.unroute(slowCheck);
  await page.getByLabel("Search skills").fill(name);
  await expect(page.getByTestId(`skill-row-project-${name}`)).toHaveCount(0);
  await page.goto("/skills/deleted");
  await page.getByTestId(`deleted-${name}`).getByRole("button", { name: "Restore" }).click();
  await page.getByTestId("restored").getByRole("link").click();
  await expect(monaco(page)).toContainText("DraftLine", { timeout: 30_000 });
  await expect(page.getByTestId("file-references/REFERENCE.md")).toBeVisible();
  await expect(page.getByTestId("file-assets/config.json")).toBeVisible();
  expect(external).toEqual([]);
  // Refused calls (the escape attempt) log a failed request; nothing else may error in the page.
  expect(pageErrors.filter((e) => !/status of 400/.test(e))).toEqual([]);
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
  // The policy may allow more: then the same skill opens for editing; switched back off afterwards.
  const allow = async (on: boolean) => {
    await admin.goto("/policies");
    const box = admin.getByLabel("Administrators may change users' personal skills");
    if ((await box.isChecked()) !== on) await box.click();
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
