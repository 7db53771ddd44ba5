// Accounts as people use them (issue #20): changing one's password ends one's other sessions, an admin reset
// gives a one-time password once, and an admin is never offered to disable or demote themselves.
import { expect, test } from "@playwright/test";
import { createUserViaUi, DEMO_ADMIN, signIn, signInAsAdmin, uniqueEmail } from "./helpers";

test("change password ends the other sessions; an admin reset gives a one-time password", async ({ page, browser }) => {
  const email = uniqueEmail("pw");
  await signInAsAdmin(page);
  await createUserViaUi(page, email, "author", "first-pass-1");
  // The admin's own row offers no Disable and no role change.
  const own = page.getByTestId(`user-row-${DEMO_ADMIN}`);
  await expect(own.getByRole("button", { name: "Disable" })).toHaveCount(0);
  await expect(own.getByLabel(`Role of ${DEMO_ADMIN}`)).toBeDisabled();

  const here = await browser.newContext();
  const laptop = await browser.newContext();
  const a = await here.newPage();
  const b = await laptop.newPage();
  await signIn(a, email, "first-pass-1");
  await signIn(b, email, "first-pass-1");
  await a.getByTestId("signed-in-user").getByRole("link", { name: email }).click();
  const form = a.getByRole("form", { name: "Change password" });
  await form.getByLabel("Current password").fill("wrong-pass");
  await form.getByLabel("New password (at least 8 characters)").fill("second-pass-2");
  await form.getByLabel("New password again").fill("second-pass-2");
  await form.getByRole("button", { name: "Change password" }).click();
  await expect(a.getByTestId("password-error")).toContainText("current password is not right");
  await form.getByLabel("Current password").fill("first-pass-1");
  await form.getByRole("button", { name: "Change password" }).click();
  await expect(a.getByTestId("password-notice")).toContainText("1 other session ended");
  await b.goto("/skills");
  await expect(b).toHaveURL(/\/login/);
  await a.goto("/skills");
  await expect(a).toHaveURL(/\/skills$/);

  // The admin resets it: a one-time password, shown once; the user's session ends and the new password works.
  await page.goto("/users");
  const row = page.getByTestId(`user-row-${email}`);
  await row.getByRole("button", { name: "Reset password…" }).click();
  await row.getByRole("button", { name: "Reset", exact: true }).click();
  const shown = (await page.getByTestId(`one-time-password-${email}`).locator("code").textContent())!;
  expect(shown).toMatch(/^[A-Za-z0-9]{16}$/);
  await a.goto("/skills");
  await expect(a).toHaveURL(/\/login/);
  await signIn(a, email, shown);
  await here.close();
  await laptop.close();
});
