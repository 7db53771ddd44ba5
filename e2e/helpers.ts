import fs from "node:fs";
import path from "node:path";
import { expect, type Page } from "@playwright/test";
import { E2E_HOME } from "../playwright.config";

export const DEMO_ADMIN = "admin@omniforge.local";

/** The demo admin's password, as a person would find it: in the data home's secrets folder. */
export function demoAdminPassword(): string {
  return fs.readFileSync(path.join(E2E_HOME, "secrets", "demo-admin-password"), "utf8").trim();
}

export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("signed-in-user")).toContainText(email);
}

export async function signInAsAdmin(page: Page): Promise<void> {
  await signIn(page, DEMO_ADMIN, demoAdminPassword());
}

let counter = 0;
/** A unique email for users a test creates, so reruns against the same data home do not collide. */
export function uniqueEmail(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${counter++}@example.test`;
}

/** Creates a user through the Users page, as an admin would. The page must be signed in as admin. */
export async function createUserViaUi(page: Page, email: string, role: "viewer" | "author" | "admin", password: string) {
  await page.goto("/users");
  const form = page.getByRole("form", { name: "Create user" });
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Role").selectOption(role);
  await form.getByLabel("Password").fill(password);
  await form.getByRole("button", { name: "Create user" }).click();
  await expect(page.getByTestId(`user-row-${email}`)).toBeVisible();
}

export async function signOut(page: Page): Promise<void> {
  // exact: the users page also has "Sign out everywhere" buttons.
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page).toHaveURL(/\/login/);
}

/**
 * A policy edit is proposed first (#41 item 2): the box says what it changes for the skills agents get; Apply
 * stores it. Returns what the box said.
 */
export async function applyPolicyChange(page: Page): Promise<string> {
  const box = page.getByRole("dialog", { name: "What this policy change does" });
  const apply = box.getByRole("button", { name: "Apply" });
  // Apply is enabled once the preview has come.
  await expect(apply).toBeEnabled();
  const said = await box.getByTestId("policy-preview").innerText();
  await apply.click();
  await expect(box).toHaveCount(0);
  return said;
}
