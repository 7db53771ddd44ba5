// Tenants as a boundary in the browser (issue #40): the global admin gives a new admin the tenant acme on the Users
// page; each tenant's agent token reports a sync; the tenant admin then signs in and finds acme's skill and acme's
// sync in the audit, and neither globex's skill nor globex's sync; then the tenant admin's Users, Tokens and
// Policies pages: only acme's people and tokens, the policy read-only and without its rule naming globex's skill, no
// Sources link.
import fs from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, test } from "./page-errors";
import { E2E_HOME } from "../playwright.config";
import { applyPolicyChange, createUserViaUi, signIn, signInAsAdmin, signOut, uniqueEmail } from "./helpers";

const PROJECT_SKILLS = path.join(E2E_HOME, "demo-project", ".omniforge", "skills");

async function setTenants(page: Page, email: string, tenants: string) {
  const field = page.getByLabel(`Tenants of ${email}`);
  await field.fill(tenants);
  await field.press("Enter");
  await page.reload();
  await expect(page.getByLabel(`Tenants of ${email}`)).toHaveValue(tenants);
}

async function tokenFor(page: Page, email: string): Promise<string> {
  await page.goto("/tokens");
  const form = page.getByRole("form", { name: "Create token" });
  await form.getByLabel("Token name").fill(`sync of ${email}`);
  await form.getByLabel("For").selectOption({ label: email });
  await form.getByRole("button", { name: "Create token" }).click();
  const token = (await page.getByTestId("token-value").textContent())!.trim();
  await page.getByRole("button", { name: "Done" }).click();
  return token;
}

test("a tenant admin sees only their tenant's skills and audit rows", async ({ page, baseURL }) => {
  const run = Date.now().toString(36);
  const [acme, globex] = [`acme-${run}`, `globex-${run}`];
  for (const t of [acme, globex]) {
    const dir = path.join(PROJECT_SKILLS, `${t}-books`);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "SKILL.md"), `---\nname: ${t}-books\ndescription: Closes the books of ${t}. Use at month end.\nscope:\n  tenants: [${t}]\n---\n# Books\n`);
  }
  const carol = uniqueEmail("tenant-admin");
  const gus = uniqueEmail("globex-author");
  await signInAsAdmin(page);
  await createUserViaUi(page, carol, "admin", "password-carol");
  await createUserViaUi(page, gus, "author", "password-gus");
  await setTenants(page, carol, acme);
  await setTenants(page, gus, globex);
  // The global admin sees both tenants' skills.
  await page.goto("/skills");
  await page.getByLabel("Search skills").fill(`-${run}-books`);
  await expect(page.getByTestId(`skill-row-project-${acme}-books`)).toBeVisible();
  await expect(page.getByTestId(`skill-row-project-${globex}-books`)).toBeVisible();

  // Each tenant's agent reports a sync with its token (one tenant each: the audit row carries it).
  for (const email of [carol, gus]) {
    const token = await tokenFor(page, email);
    const res = await fetch(`${baseURL}/api/catalog/deployments`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ host: `host-${run}`, agent: "claude-code", scope: "user", skills: [] }),
    });
    expect(res.status).toBe(200);
  }
  await signOut(page);

  await signIn(page, carol, "password-carol");
  await page.goto("/skills");
  await page.getByLabel("Search skills").fill(`-${run}-books`);
  await expect(page.getByTestId(`skill-row-project-${acme}-books`)).toBeVisible();
  await expect(page.getByTestId(`skill-row-project-${globex}-books`)).toHaveCount(0);

  await page.goto("/audit?type=catalog_synced");
  await expect(page.getByTestId("audit-row").first()).toBeVisible();
  await expect(page.getByTestId("audit-row")).toHaveCount(1);
  await expect(page.getByTestId("audit-row").first()).toContainText(carol);
  await page.getByTestId("audit-row").first().click();
  // The details read as labelled fields; the stored record, tenant included, is behind Raw.
  await page.getByTestId("audit-event").getByRole("button", { name: "Raw" }).click();
  expect(JSON.parse((await page.getByTestId("audit-details").textContent()) ?? "{}")).toMatchObject({ type: "catalog_synced", tenant: acme });
});

test("a tenant admin's Users, Tokens and Policies pages hold their tenant only; the policy is read-only and Sources is not offered", async ({ page }) => {
  const run = Date.now().toString(36);
  const acme = `acme-${run}`;
  const [carol, ann, gus] = [uniqueEmail("tenant-admin"), uniqueEmail("acme-author"), uniqueEmail("globex-author")];
  await signInAsAdmin(page);
  // The global admin is offered Sources (the shell has asked the server who is global).
  await expect(page.getByRole("navigation", { name: "Main" })).toHaveAttribute("data-global-admin", "true");
  for (const [email, role] of [[carol, "admin"], [ann, "author"], [gus, "author"]] as const) await createUserViaUi(page, email, role, `password-${run}`);
  await setTenants(page, carol, acme);
  await setTenants(page, ann, acme);
  await setTenants(page, gus, `globex-${run}`);
  await tokenFor(page, ann);
  await tokenFor(page, gus);
  // A rule naming globex's skill: the global admin reads it, acme's admin is told only that a rule is not shown.
  const vault = `globex-${run}-vault`;
  fs.mkdirSync(path.join(PROJECT_SKILLS, vault), { recursive: true });
  fs.writeFileSync(path.join(PROJECT_SKILLS, vault, "SKILL.md"), `---\nname: ${vault}\ndescription: Opens globex's vault. Use when asked to.\nscope:\n  tenants: [globex-${run}]\n---\n# Vault\n`);
  await page.goto("/policies");
  await page.getByLabel("Skill name to block").fill(vault);
  await page.getByRole("button", { name: "Block", exact: true }).click();
  await applyPolicyChange(page);
  await expect(page.getByTestId("blocked-names")).toContainText(vault);
  await signOut(page);

  await signIn(page, carol, `password-${run}`);
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav).toHaveAttribute("data-global-admin", "false");
  await expect(nav.getByRole("link", { name: "Policies" })).toHaveCount(1);
  await expect(nav.getByRole("link", { name: "Sources" })).toHaveCount(0);
  // The Overview's links to the areas are the header's.
  await page.goto("/");
  const areas = page.getByRole("navigation", { name: "Areas" });
  await expect(areas.getByRole("link", { name: "Policies" })).toBeVisible();
  await expect(nav).toHaveAttribute("data-global-admin", "false");
  await expect(areas.getByRole("link", { name: "Sources" })).toHaveCount(0);

  await page.goto("/users");
  await expect(page.getByTestId(`user-row-${ann}`)).toBeVisible();
  await expect(page.getByTestId(`user-row-${carol}`).getByTestId("user-sign-in")).toHaveText("password");
  await expect(page.getByTestId("users-table").locator("tbody tr")).toHaveCount(2);
  await expect(page.getByTestId(`user-row-${gus}`)).toHaveCount(0);

  await page.goto("/tokens");
  await page.getByLabel("Show every token").check();
  await expect(page.getByTestId(`token-row-sync of ${ann}`)).toBeVisible();
  await expect(page.getByTestId(`token-row-sync of ${ann}`).getByTestId("token-owner-sign-in")).toHaveText("password");
  await expect(page.getByTestId(`token-row-sync of ${gus}`)).toHaveCount(0);

  await page.goto("/policies");
  await expect(page.getByTestId("policy-read-only")).toBeVisible();
  await expect(page.getByLabel("Require approval for project skills")).toBeDisabled();
  await expect(page.getByTestId("policy-hidden-rules")).toContainText("of another tenant and");
  await expect(page.getByTestId("blocked-names")).not.toContainText(vault);
});
