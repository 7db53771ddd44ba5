import { expect, test } from "./page-errors";
import { createUserViaUi, signIn, signInAsAdmin, signOut, uniqueEmail } from "./helpers";

test("a session cookie copied before sign-out is refused after it", async ({ browser }) => {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await signInAsAdmin(page);
  // Someone copies the cookie (a shared machine, a proxy log, a stolen laptop backup).
  const copy = await browser.newContext({ storageState: await ctx.storageState() });
  expect((await copy.request.get("/api/trpc/user.me")).status()).toBe(200);

  await signOut(page);
  expect((await copy.request.get("/api/trpc/user.me")).status()).toBe(401);
  const copyPage = await copy.newPage();
  await copyPage.goto("/users");
  await expect(copyPage).toHaveURL(/\/login/);
  await ctx.close();
  await copy.close();
});

test("an admin signs a user out everywhere from the users page; their open sessions end at once", async ({ browser }) => {
  const adminCtx = await browser.newContext();
  const admin = await adminCtx.newPage();
  await signInAsAdmin(admin);
  const email = uniqueEmail("revoked");
  await createUserViaUi(admin, email, "author", "author-pass-123");

  const userCtx = await browser.newContext();
  const user = await userCtx.newPage();
  await signIn(user, email, "author-pass-123");
  expect((await userCtx.request.get("/api/trpc/user.me")).status()).toBe(200);

  await admin.getByTestId(`user-row-${email}`).getByRole("button", { name: "Sign out everywhere" }).click();
  await expect(admin.getByTestId("users-notice")).toHaveText(`Signed ${email} out everywhere: 1 open session ended.`);
  expect((await userCtx.request.get("/api/trpc/user.me")).status()).toBe(401);
  await user.goto("/skills");
  await expect(user).toHaveURL(/\/login/);
  // The admin's own session is untouched.
  expect((await adminCtx.request.get("/api/trpc/user.me")).status()).toBe(200);
  await adminCtx.close();
  await userCtx.close();
});

test("the running console refuses cross-site mutations and oversized bodies", async ({ browser }) => {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await signInAsAdmin(page);
  const body = JSON.stringify({ json: { email: uniqueEmail("csrf"), role: "admin", password: "password-123" } });
  const forged = await ctx.request.post("/api/trpc/user.create", {
    headers: { origin: "https://evil.example", "content-type": "application/json" },
    data: body,
  });
  expect(forged.status()).toBe(403);
  // In tRPC's own error shape, which the console's client reads, saying what to set (issue #35).
  expect(await forged.json()).toMatchObject({ error: { json: { message: expect.stringContaining("OMNIFORGE_ALLOWED_ORIGINS"), data: { httpStatus: 403 } } } });
  // The same local console by its other loopback name is the same origin (NEXTAUTH_URL names 127.0.0.1 here).
  const alias = new URL(page.url());
  alias.hostname = "localhost";
  const viaAlias = await ctx.request.post("/api/trpc/user.create", {
    headers: { origin: alias.origin, "content-type": "application/json" },
    data: JSON.stringify({ json: { email: uniqueEmail("alias"), role: "viewer", password: "password-123" } }),
  });
  expect(viaAlias.status()).toBe(200);
  const big = await ctx.request.post("/api/trpc/user.create", {
    headers: { "content-type": "application/json" },
    data: "x".repeat(3 * 1024 * 1024),
  });
  expect(big.status()).toBe(413);
  await ctx.close();
});
