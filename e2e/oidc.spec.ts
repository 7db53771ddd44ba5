// Single sign-on in the browser (issue #40), against a real OpenID provider on 127.0.0.1 and a console of its own
// (the shared e2e server keeps its password sign-ins): password form hidden, "Sign in with …", the role from the
// provider's groups, and a person moved out of the admins' group is no longer admin at the next sign-in.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import type { Browser } from "@playwright/test";
import { expect, test } from "./page-errors";
import { startTestIdp, type TestIdp } from "../server/services/auth/test-support/oidc";

let idp: TestIdp;
let server: ChildProcess;
let consoleUrl: string;
let home: string;

const freePort = () =>
  new Promise<number>((ok) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => ok(port));
    });
  });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  const port = await freePort();
  consoleUrl = `http://127.0.0.1:${port}`;
  idp = await startTestIdp(() => `${consoleUrl}/api/auth/callback/oidc`);
  home = fs.mkdtempSync(path.join(os.tmpdir(), "omniforge-e2e-oidc-"));
  server = spawn("node_modules/.bin/tsx", ["scripts/start.ts"], {
    detached: true,
    stdio: ["ignore", "ignore", "inherit"],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      OMNIFORGE_HOME: home,
      NEXTAUTH_URL: consoleUrl,
      OMNIFORGE_AUDIT_STDOUT: "0",
      OMNIFORGE_DEMO: "0",
      OMNIFORGE_OIDC_ISSUER: idp.issuer,
      OMNIFORGE_OIDC_CLIENT_ID: idp.clients.console.id,
      OMNIFORGE_OIDC_CLIENT_SECRET: idp.clients.console.secret,
      OMNIFORGE_OIDC_NAME: "Test IdP",
      OMNIFORGE_OIDC_ROLE_MAP: "admins=admin,eng=author",
      OMNIFORGE_PASSWORD_LOGIN: "off",
    },
  });
  // Until the console answers its health probe (or its process ends, which fails the run).
  await expect
    .poll(
      async () => {
        if (server.exitCode !== null) throw new Error(`the console stopped (exit ${server.exitCode})`);
        return fetch(`${consoleUrl}/api/health`).then((r) => r.status, () => 0);
      },
      { timeout: 180_000 },
    )
    .toBe(200);
});

test.afterAll(async () => {
  if (server?.pid && server.exitCode === null) {
    // Its own process group (detached): the start script and the console it runs; the data home goes once they have.
    const exited = new Promise((ok) => server.once("exit", ok));
    process.kill(-server.pid, "SIGTERM");
    await exited;
  }
  await idp?.close();
  if (home) fs.rmSync(home, { recursive: true, force: true });
});

/** A fresh browser through the login page, the provider's development login and consent, back to the console. */
async function signInThroughProvider(browser: Browser, account: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${consoleUrl}/login`);
  await expect(page.getByLabel("Password")).toHaveCount(0);
  await page.getByRole("button", { name: "Sign in with Test IdP" }).click();
  await page.locator('input[name="login"]').fill(account);
  await page.locator('input[name="password"]').fill("any");
  await page.getByRole("button", { name: "Sign-in" }).click();
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByTestId("signed-in-user")).toBeVisible();
  return { context, page };
}

test("sign in through the provider: the role comes from its groups and follows them at the next sign-in", async ({ browser }) => {
  idp.accounts.set("e2e-ada", { email: "ada@corp.example", name: "Ada", groups: ["admins"] });
  const first = await signInThroughProvider(browser, "e2e-ada");
  await expect(first.page.getByTestId("signed-in-user")).toContainText("ada@corp.example");
  await expect(first.page.getByTestId("user-role")).toHaveText("admin");
  await first.context.close();

  idp.accounts.set("e2e-ada", { email: "ada@corp.example", name: "Ada", groups: ["eng"] });
  const later = await signInThroughProvider(browser, "e2e-ada");
  await expect(later.page.getByTestId("user-role")).toHaveText("author");
  await later.context.close();
});

test("the password form is hidden and the credentials endpoint refuses when password sign-in is off", async ({ page, request }) => {
  await page.goto(`${consoleUrl}/login`);
  await expect(page.getByRole("button", { name: "Sign in with Test IdP" })).toBeVisible();
  await expect(page.getByRole("form", { name: "Sign in" })).toHaveCount(0);
  const { csrfToken } = (await (await request.get(`${consoleUrl}/api/auth/csrf`)).json()) as { csrfToken: string };
  const res = await request.post(`${consoleUrl}/api/auth/callback/credentials`, {
    form: { csrfToken, email: "admin@omniforge.local", password: "whatever-it-is", json: "true" },
  });
  expect(((await res.json()) as { url: string }).url).toContain("Password%20sign-in%20is%20turned%20off");
});

test("a refused sign-in is told by a fixed text, and the address cannot write its own words on the login page", async ({ page }) => {
  await page.goto(`${consoleUrl}/login?error=disabled`);
  await expect(page.getByTestId("login-error")).toHaveText("This account is disabled. Ask an administrator to enable it.");
  await page.goto(`${consoleUrl}/login?error=${encodeURIComponent("Call 555-0100 to restore your account")}`);
  await expect(page.getByTestId("login-error")).toHaveText("Sign-in did not complete. Start it again.");
});

