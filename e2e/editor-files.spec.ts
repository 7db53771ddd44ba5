// A skill's files in the editor: the file tree (add, rename, delete, a path that leaves the skill), preview links,
// completion and hover help, an unsaved draft offered in another browser, and deleting then restoring the skill.
import { expect, test } from "./page-errors";
import { createSkill, monaco, newUser, replaceText, stamp, validText } from "./editor-helpers";
import { signIn } from "./helpers";

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
  await expect(page.getByTestId("editor-notice")).toHaveText("Renamed references/extra.md to references/renamed.md.");
  await page.getByTestId("file-references/renamed.md").click();
  await tree.getByRole("button", { name: "Delete" }).click();
  await tree.getByRole("button", { name: "Confirm" }).click();
  await expect(page.getByTestId("file-references/renamed.md")).toHaveCount(0);
  // Renaming a file SKILL.md links to offers to update the link, in the buffer: the author reviews it and saves.
  await page.getByTestId("file-references/REFERENCE.md").click();
  await tree.getByLabel("Rename to").fill("references/details.md");
  await tree.getByRole("button", { name: "Rename" }).click();
  const notice = page.getByTestId("editor-notice");
  await expect(notice).toContainText("Renamed references/REFERENCE.md to references/details.md. SKILL.md still points to references/REFERENCE.md in 1 place.");
  await notice.getByRole("button", { name: "Update the link" }).click();
  await expect(notice).toContainText("Updated 1 reference in SKILL.md from references/REFERENCE.md to references/details.md. Save SKILL.md");
  await expect(monaco(page)).toContainText("[the reference](references/details.md)");
  await page.getByRole("button", { name: /^Save/ }).click();
  await expect(notice).toContainText("Saved SKILL.md");
  await expect(page.getByTestId("diagnostics")).not.toContainText("REFERENCE.md");
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
  await expect(page.getByTestId("file-references/details.md")).toBeVisible();
  await expect(page.getByTestId("file-assets/config.json")).toBeVisible();
  expect(external).toEqual([]);
  // Refused calls (the escape attempt) log a failed request; nothing else may error in the page.
  expect(pageErrors.filter((e) => !/status of 400/.test(e))).toEqual([]);
  await ctx.close();
});
