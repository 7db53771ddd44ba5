// What the skill editor specs share: a signed-in user of a role whose every browser request is watched, the Monaco
// editor and typing into it as a person does, and creating a skill through the New skill form.
import { expect, type BrowserContext, type Page } from "@playwright/test";
import { createUserViaUi, signIn, signInAsAdmin, uniqueEmail } from "./helpers";

export const stamp = Date.now().toString(36);

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

export async function newUser(browser: import("@playwright/test").Browser, role: "author" | "viewer" | "admin"): Promise<{ ctx: BrowserContext; page: Page; email: string; external: string[] }> {
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

export const monaco = (page: Page) => page.getByTestId("monaco-host").locator(".monaco-editor").first();

/** Replaces the whole text of the open file, as a person selecting all and typing. */
export async function replaceText(page: Page, text: string) {
  await monaco(page).locator(".view-lines").click();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.press("Delete");
  await page.keyboard.insertText(text);
  await page.keyboard.press("Escape");
}

export async function appendText(page: Page, text: string) {
  await monaco(page).locator(".view-lines").click();
  await page.keyboard.press("ControlOrMeta+End");
  await page.keyboard.insertText(text);
  await page.keyboard.press("Escape");
}

export async function createSkill(page: Page, name: string, template = "Instructions only") {
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

export const validText = (name: string, extra = "") => `---\nname: ${name}\ndescription: Notes for ${name}. Use when testing the editor.\n---\n\n# ${name}\n\nFirst body line.\n${extra}`;
