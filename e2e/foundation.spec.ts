import { expect, test } from "./page-errors";
import { createUserViaUi, DEMO_ADMIN, demoAdminPassword, signIn, signInAsAdmin, signOut, uniqueEmail } from "./helpers";
import { consoleDatabaseKind } from "./console-db";

test("the demo admin signs in, sees the shell with role, and signs out", async ({ page }) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/login/);
  await signIn(page, DEMO_ADMIN, demoAdminPassword());
  await expect(page.getByTestId("user-role")).toHaveText("admin");
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Users" })).toBeVisible();
  // The overview is the page an admin opens first: the demo catalog has one broken skill, shown and linked.
  await expect(page.getByTestId("overview")).toBeVisible();
  await expect(page.getByTestId("figure-invalid")).not.toContainText(/^0/);
  await expect(page.getByRole("region", { name: "Invalid skills" })).toContainText("broken-frontmatter");
  // Each figure opens the place where it is handled: "invalid" is the skills list filtered to invalid skills.
  await expect(page.getByTestId("figure-refusals (24 h)")).toHaveAttribute("href", /^\/audit\?from=\d+&to=\d+&outcome=refused$/);
  await page.getByTestId("figure-invalid").click();
  await expect(page).toHaveURL(/\/skills\?status=invalid$/);
  await expect(page.getByLabel("Status filter")).toHaveValue("invalid");
  await expect(page.getByTestId("skill-row-project-broken-frontmatter")).toBeVisible();
  await expect(page.locator("[data-testid^=skill-row-]").filter({ hasNotText: "invalid" })).toHaveCount(0);
  await signOut(page);
  await page.goto("/users");
  await expect(page).toHaveURL(/\/login\?callbackUrl=%2Fusers/);
});

test("a wrong password is refused with a message", async ({ page }) => {
  await page.goto("/login");
  await page.getByLabel("Email").fill(DEMO_ADMIN);
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("login-error")).toHaveText("Wrong email or password.");
  await expect(page).toHaveURL(/\/login/);
});

test("an admin creates an author who can then sign in; a viewer cannot open the users page", async ({ browser }) => {
  const adminCtx = await browser.newContext();
  const admin = await adminCtx.newPage();
  await signInAsAdmin(admin);
  const authorEmail = uniqueEmail("author");
  const viewerEmail = uniqueEmail("viewer");
  await createUserViaUi(admin, authorEmail, "author", "author-pass-123");
  await createUserViaUi(admin, viewerEmail, "viewer", "viewer-pass-123");

  const authorCtx = await browser.newContext();
  const author = await authorCtx.newPage();
  await signIn(author, authorEmail, "author-pass-123");
  await expect(author.getByTestId("user-role")).toHaveText("author");

  const viewerCtx = await browser.newContext();
  const viewer = await viewerCtx.newPage();
  await signIn(viewer, viewerEmail, "viewer-pass-123");
  await expect(viewer.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Users" })).toHaveCount(0);
  await viewer.goto("/users");
  await expect(viewer.getByTestId("forbidden")).toBeVisible();
  // The server refuses the data too, not only the page.
  const res = await viewer.request.get("/api/trpc/user.list");
  expect(res.status()).toBe(403);

  // Disabling the viewer locks them out of new sign-ins.
  await admin.goto("/users");
  await admin.getByTestId(`user-row-${viewerEmail}`).getByRole("button", { name: "Disable" }).click();
  await expect(admin.getByTestId(`user-row-${viewerEmail}`)).toContainText("disabled");
  const again = await (await browser.newContext()).newPage();
  await again.goto("/login");
  await again.getByLabel("Email").fill(viewerEmail);
  await again.getByLabel("Password").fill("viewer-pass-123");
  await again.getByRole("button", { name: "Sign in" }).click();
  await expect(again.getByTestId("login-error")).toContainText("disabled");
  await adminCtx.close();
  await authorCtx.close();
  await viewerCtx.close();
});

test("health reports the database and anonymous API calls are refused", async ({ request }) => {
  const health = await request.get("/api/health");
  expect(health.status()).toBe(200);
  const body = await health.json();
  expect(body).toMatchObject({ status: "ok", database: "ok", databaseKind: consoleDatabaseKind() });
  expect(typeof body.uptimeSeconds).toBe("number");
  const anon = await request.get("/api/trpc/user.me");
  expect(anon.status()).toBe(401);
});

test("at 800 px wide every page the admin opens fits the window: the menu opens from its button, wide tables scroll in their card", async ({ page }) => {
  await page.setViewportSize({ width: 800, height: 700 });
  await signInAsAdmin(page);
  // A long blocked name (any name a skill loads with can be blocked) must not widen the policies page.
  const longName = `long-${"n".repeat(300)}-${Date.now().toString(36)}`;
  expect((await page.request.post("/api/trpc/policy.change", { data: { json: { op: "block", name: longName } } })).status()).toBe(200);
  const pages = ["/", "/skills", "/skills/project/csv-insights", "/layers", "/playground", "/doctor", "/audit", "/policies", "/tokens", "/users", "/account"];
  for (const path of pages) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible({ timeout: 30_000 });
    // Lists fill after the first paint; wait for the loading rows to go before measuring.
    await expect(page.getByText("Loading…")).toHaveCount(0, { timeout: 15_000 });
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(`${path}: ${width}px`).toBe(`${path}: ${Math.min(width, 800)}px`);
    if (path === "/layers") {
      // The matrix scrolls sideways as one: its rows fit the row list, which cannot slide under a still header.
      const rows = await page.getByTestId("layers-scroll").evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
      expect(rows.scroll).toBeLessThanOrEqual(rows.client);
    }
  }
  // Below 1024 px the links sit behind the Menu button (one header row); open, every link is in the window.
  await page.getByRole("button", { name: "Menu" }).click();
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Users" })).toBeInViewport();
  expect((await page.request.post("/api/trpc/policy.change", { data: { json: { op: "unblock", name: longName } } })).status()).toBe(200);
  // On a laptop's 1280 px the admin's whole menu is one row, level with the name and the sign-out button.
  await page.setViewportSize({ width: 1280, height: 800 });
  const nav = page.getByRole("navigation", { name: "Main" });
  const first = await nav.getByRole("link", { name: "Overview" }).boundingBox();
  const last = await nav.getByRole("link", { name: "Users" }).boundingBox();
  const signOut = await page.getByRole("button", { name: "Sign out" }).boundingBox();
  expect(Math.round(last!.y)).toBe(Math.round(first!.y));
  expect(Math.abs(last!.y + last!.height / 2 - (signOut!.y + signOut!.height / 2))).toBeLessThan(8);
});
