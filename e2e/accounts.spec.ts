// Accounts as people use them (issue #20): changing one's password ends one's other sessions, an admin reset
// gives a one-time password once, and an admin is never offered to disable or demote themselves.
import { expect, test } from "./page-errors";
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

test("the Users form says which field is wrong in plain words, refuses blanks and undeliverable addresses, and long values stay in their cells", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInAsAdmin(page);
  await page.goto("/users");
  const form = page.getByRole("form", { name: "Create user" });
  const error = page.getByTestId("users-error");
  const email = uniqueEmail("plain");

  // A pasted 5,000-character name: the server's word, naming the field.
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Name").fill("n".repeat(5000));
  await form.getByLabel("Password").fill("long-name-pass");
  await form.getByRole("button", { name: "Create user" }).click();
  await expect(error).toHaveText("Name: at most 120 characters.");
  // Spaces alone are not a name, nor a password.
  await form.getByLabel("Name").fill("");
  await form.getByLabel("Name").pressSequentially("   ");
  await form.getByRole("button", { name: "Create user" }).click();
  await expect(error).toHaveText("Name: only spaces; type a name or leave the field empty.");
  await form.getByLabel("Name").fill("");
  await form.getByLabel("Password").fill("");
  await form.getByLabel("Password").pressSequentially("        ");
  await form.getByRole("button", { name: "Create user" }).click();
  await expect(error).toHaveText("Password: not only spaces.");
  // A later attempt the browser's own check stops (the email emptied) does not leave the old line standing.
  await form.getByLabel("Email").fill("");
  await form.getByRole("button", { name: "Create user" }).click();
  await expect(error).toHaveCount(0);

  // An address with 300 characters before the @: refused before it reaches anyone's table.
  await form.getByLabel("Email").fill(`${"x".repeat(300)}@example.test`);
  await form.getByLabel("Password").fill("long-mail-pass");
  await form.getByRole("button", { name: "Create user" }).click();
  await expect(error).toHaveText("Email: the part before the @ has 300 characters; mail systems take at most 64.");
  await expect(page.getByTestId("users-table")).not.toContainText("x".repeat(300));

  // The longest address mail carries (64 + @ + 189; the browser wants labels of at most 63) is accepted; its row
  // keeps role, status and buttons in view.
  const longest = `${email.split("@")[0]!.padEnd(64, "x")}@${["d".repeat(60), "e".repeat(60), "f".repeat(54)].join(".")}.example.test`;
  expect(longest).toHaveLength(254);
  await form.getByLabel("Email").fill(longest);
  await form.getByLabel("Name").fill("A name long enough to need cutting in its cell, said whole in the title");
  await form.getByRole("button", { name: "Create user" }).click();
  const row = page.getByTestId(`user-row-${longest}`);
  await expect(row).toBeVisible();
  await expect(error).toHaveCount(0);
  await expect(row.getByTestId("user-email")).toHaveAttribute("title", longest);
  for (const control of [row.getByLabel(`Role of ${longest}`), row.getByRole("button", { name: "Disable" }), page.getByTestId(`user-row-${DEMO_ADMIN}`).getByRole("button", { name: "Sign out everywhere" })]) {
    const box = (await control.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(1280);
  }

  // Its creation is on record with the outcome every other change has.
  await page.goto("/audit?type=user_created");
  await page.getByTestId("audit-row").first().click();
  await page.getByTestId("audit-event").getByRole("button", { name: "Raw" }).click();
  expect(JSON.parse((await page.getByTestId("audit-details").textContent()) ?? "{}")).toMatchObject({ type: "user_created", outcome: "ok", details: { email: longest } });
});

test("the first Tab offers to skip to the page's content", async ({ page }) => {
  await signInAsAdmin(page);
  await page.goto("/users");
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press("Enter");
  await expect(page.locator("#main-content")).toBeFocused();
  // The next Tab lands in the page, not in the header's links.
  await page.keyboard.press("Tab");
  await expect(page.getByRole("form", { name: "Create user" }).getByLabel("Email")).toBeFocused();
});
