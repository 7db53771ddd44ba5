import { createPublicKey, verify } from "node:crypto";
import { type APIRequestContext, type Page } from "@playwright/test";
import { expect, test } from "./page-errors";
import { execOnConsoleDb } from "./console-db";
import { createUserViaUi, DEMO_ADMIN, signIn, signInAsAdmin, uniqueEmail } from "./helpers";

/** The signed-in user's id, from the same API the console uses (superjson envelope). */
async function myId(request: APIRequestContext): Promise<string> {
  const res = await request.get("/api/trpc/user.me");
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { result: { data: { json: { id: string } } } }).result.data.json.id;
}

async function tableIds(page: Page): Promise<number[]> {
  return (await page.getByTestId("audit-row").evaluateAll((rows) => rows.map((r) => Number(r.getAttribute("data-event-id")))));
}

test("an admin sees login events with the right filters, opens one, exports the same rows and verifies the chain", async ({ page }) => {
  const started = Date.now();
  // A failed attempt first, then the real sign-in: both are audit events.
  await page.goto("/login");
  await page.getByLabel("Email").fill(DEMO_ADMIN);
  await page.getByLabel("Password").fill("certainly-wrong");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("login-error")).toBeVisible();
  await signInAsAdmin(page);
  const adminId = await myId(page.request);

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Audit" }).click();
  await expect(page).toHaveURL(/\/audit/);
  // The e2e server runs with OMNIFORGE_AUDIT_RETENTION_DAYS=3650: the page says so, and where archives go.
  await expect(page.getByTestId("audit-retention")).toContainText("events older than 3650 days are archived daily to JSONL files in ");
  await expect(page.getByTestId("audit-retention")).toContainText("audit-archive");

  // Filter through the form; the URL keeps the filter.
  const filters = page.getByRole("form", { name: "Audit filters" });
  await filters.getByLabel("Event type").selectOption("login");
  await filters.getByLabel("User", { exact: true }).fill(adminId);
  await filters.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(new RegExp(`type=login&user=${adminId}`));
  await expect(page.getByTestId("audit-row").first()).toBeVisible();
  const types = await page.getByTestId("audit-row-type").allTextContents();
  expect(new Set(types)).toEqual(new Set(["login"]));
  await expect(page.getByTestId("audit-row").first()).toContainText(DEMO_ADMIN);

  // The shared URL opens the same view; narrowed to this test's time so the table holds one page whatever
  // other journeys logged before.
  await page.goto(`${page.url()}&from=${encodeURIComponent(new Date(started - 1000).toISOString())}`);
  await expect(page.getByRole("form", { name: "Audit filters" }).getByLabel("Event type")).toHaveValue("login");
  await expect(page.getByTestId("audit-row").first()).toBeVisible();
  const ids = await tableIds(page);
  expect(ids.length).toBeGreaterThan(0);
  expect(ids.length).toBeLessThan(50); // one page: the export must hold exactly these rows

  // Details on click, read as labelled fields; the stored record behind Raw.
  await page.getByTestId("audit-row").first().click();
  await expect(page.getByTestId("audit-field-event")).toContainText("login");
  await page.getByTestId("audit-event").getByRole("button", { name: "Raw" }).click();
  const details = JSON.parse((await page.getByTestId("audit-details").textContent()) ?? "{}");
  expect(details).toMatchObject({ id: ids[0], type: "login", actorId: adminId, outcome: "ok" });
  expect(details.hash).toMatch(/^[0-9a-f]{64}$/);

  // Export: JSONL and CSV hold the same rows as the table, in the same order.
  const jsonl = await page.request.get((await page.getByTestId("export-jsonl").getAttribute("href"))!);
  expect(jsonl.status()).toBe(200);
  expect(jsonl.headers()["content-type"]).toContain("application/x-ndjson");
  const rows = (await jsonl.text()).trim().split("\n").map((l) => JSON.parse(l));
  expect(rows.map((r) => r.id)).toEqual(ids);
  expect(rows.every((r) => r.type === "login" && r.actorId === adminId)).toBe(true);
  const csv = await page.request.get((await page.getByTestId("export-csv").getAttribute("href"))!);
  const lines = (await csv.text()).trim().split("\r\n");
  expect(lines[0]!.startsWith("id,at,type,")).toBe(true);
  expect(lines.slice(1).map((l) => Number(l.split(",")[0]))).toEqual(ids);

  // The refused attempt is there under its own filter.
  await page.goto(`/audit?type=login_failed&outcome=refused&from=${encodeURIComponent(new Date(started - 1000).toISOString())}`);
  await expect(page.getByTestId("audit-row").first()).toContainText("login_failed");

  // Charts render; verification reports an intact chain.
  await expect(page.getByTestId("chart-timeseries").locator("svg")).toBeVisible();
  await page.getByTestId("verify-button").click();
  await expect(page.getByTestId("verify-result")).toContainText(/intact, \d+ events/);

  // Someone edits a row behind the console's back: verification names it; putting it back heals the chain.
  try {
    await execOnConsoleDb(`UPDATE audit_events SET outcome = 'refused' WHERE id = ?`, ids[0]);
    await page.getByTestId("verify-button").click();
    await expect(page.getByTestId("verify-result")).toContainText(`broken at row ${ids[0]}: edited`);
    await expect(page.getByTestId("verify-broken-row")).toContainText('"outcome": "refused"');
  } finally {
    await execOnConsoleDb(`UPDATE audit_events SET outcome = 'ok' WHERE id = ?`, ids[0]);
  }
  await page.getByTestId("verify-button").click();
  await expect(page.getByTestId("verify-result")).toContainText(/intact, \d+ events/);

  // The chain is keyed and checkpointed: the page says which checkpoint holds, and the downloaded
  // checkpoints verify with the downloaded public key alone.
  await expect(page.getByTestId("verify-keying")).toContainText("Keyed (HMAC) from row");
  await expect(page.getByTestId("verify-checkpoints")).toContainText(/all matching\. Checkpoint \d+ \(row \d+, .*\) still holds\./);
  const pem = await (await page.request.get((await page.getByTestId("download-checkpoint-key").getAttribute("href"))!)).text();
  expect(pem).toMatch(/^-----BEGIN PUBLIC KEY-----/);
  const checkpoints = await page.request.get((await page.getByTestId("download-checkpoints").getAttribute("href"))!);
  expect(checkpoints.status()).toBe(200);
  const signed = (await checkpoints.text()).trim().split("\n").map((l) => JSON.parse(l));
  expect(signed.length).toBeGreaterThan(0);
  for (const c of signed) {
    const message = Buffer.from(JSON.stringify([c.v, c.seq, c.rowId, c.hash, c.at, c.key, c.prev]));
    expect(verify(null, message, createPublicKey(pem), Buffer.from(c.sig, "base64url"))).toBe(true);
  }
});

test("a viewer cannot open the dashboard; an author sees only their own events", async ({ browser }) => {
  const adminCtx = await browser.newContext();
  const admin = await adminCtx.newPage();
  await signInAsAdmin(admin);
  const viewerEmail = uniqueEmail("audit-viewer");
  const authorEmail = uniqueEmail("audit-author");
  await createUserViaUi(admin, viewerEmail, "viewer", "viewer-pass-123");
  await createUserViaUi(admin, authorEmail, "author", "author-pass-123");

  const viewerCtx = await browser.newContext();
  const viewer = await viewerCtx.newPage();
  await signIn(viewer, viewerEmail, "viewer-pass-123");
  await expect(viewer.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Audit" })).toHaveCount(0);
  await viewer.goto("/audit");
  await expect(viewer.getByTestId("forbidden")).toBeVisible();
  await expect(viewer.getByTestId("audit-table")).toHaveCount(0);
  // The data is refused too, not only the page.
  expect((await viewer.request.get("/api/trpc/audit.list?input=" + encodeURIComponent(JSON.stringify({ json: {} })))).status()).toBe(403);
  expect((await viewer.request.get("/api/audit/export?format=jsonl")).status()).toBe(403);
  expect((await viewer.request.get("/api/audit/checkpoints")).status()).toBe(403);

  const authorCtx = await browser.newContext();
  const author = await authorCtx.newPage();
  await signIn(author, authorEmail, "author-pass-123");
  const authorId = await myId(author.request);
  await author.goto("/audit");
  await expect(author.getByTestId("audit-row").first()).toBeVisible();
  const res = await author.request.get("/api/audit/export?format=jsonl");
  const rows = (await res.text()).trim().split("\n").map((l) => JSON.parse(l));
  expect(rows.length).toBeGreaterThan(0);
  expect(new Set(rows.map((r) => r.actorId))).toEqual(new Set([authorId]));
  await expect(author.getByTestId("verify-button")).toHaveCount(0);

  // The admin sees the viewer's refused attempts.
  await admin.goto("/audit?type=access_denied&outcome=refused");
  await expect(admin.getByTestId("audit-row").filter({ hasText: viewerEmail }).first()).toBeVisible();
  await adminCtx.close();
  await viewerCtx.close();
  await authorCtx.close();
});

test("a skill activated in the playground shows up under the session and skill filters", async ({ page }) => {
  await signInAsAdmin(page);
  await page.goto("/playground");
  const form = page.getByRole("form", { name: "New session" });
  await form.getByLabel("Title").fill("Audit trail check");
  await form.getByRole("button", { name: "Start session" }).click();
  await expect(page).toHaveURL(/\/playground\?session=[0-9a-f-]{36}/);
  const sessionId = new URL(page.url()).searchParams.get("session")!;
  await page.getByLabel("Message").fill("draft the release notes");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByTestId("turn").last().getByTestId("step-activation")).toContainText("release-notes", { timeout: 30_000 });

  await page.goto(`/audit?session=${sessionId}&type=skill_activated`);
  const row = page.getByTestId("audit-row").first();
  await expect(row).toContainText("release-notes");
  await expect(page.getByTestId("audit-row-type")).toHaveText(["skill_activated"]);
  // The same session, all types: the activation and the tool calls that followed, nothing from elsewhere.
  await page.goto(`/audit?session=${sessionId}`);
  await expect(page.getByTestId("audit-row").first()).toBeVisible();
  const types = await page.getByTestId("audit-row-type").allTextContents();
  expect(types).toContain("skill_activated");
  const jsonl = await page.request.get((await page.getByTestId("export-jsonl").getAttribute("href"))!);
  const rows = (await jsonl.text()).trim().split("\n").map((l) => JSON.parse(l));
  expect(rows.length).toBe(types.length);
  expect(new Set(rows.map((r) => r.sessionId))).toEqual(new Set([sessionId]));
  await page.goto(`/audit?skill=release-notes&type=skill_activated&session=${sessionId}`);
  await expect(page.getByTestId("chart-top-skills")).toContainText("release-notes");
});

test("dates in the address that are no date are ignored with a note; an inverted range is refused by the fields; Back undoes a filter", async ({ page }) => {
  await signInAsAdmin(page);
  // A typed-in or truncated address does not take the page down: the From value is ignored and said so.
  await page.goto("/audit?from=abc");
  await expect(page.getByRole("heading", { name: "Audit" })).toBeVisible();
  await expect(page.getByTestId("audit-date-ignored")).toHaveText(/From value "abc" is not a date, so it is ignored/);
  await expect(page.getByTestId("audit-row").first()).toBeVisible();
  // Epoch milliseconds, the form the export links write, open as a date in the field.
  const from = Date.UTC(2026, 0, 2, 3, 4);
  await page.goto(`/audit?from=${from}`);
  const filters = page.getByRole("form", { name: "Audit filters" });
  await expect(filters.getByLabel("From", { exact: true })).toHaveValue("2026-01-02T03:04");
  // The explicit date replaces the time range, and the range's select says so.
  await expect(filters.getByLabel("Time range")).toHaveValue("");
  await expect(filters.getByLabel("Time range").locator("option:checked")).toHaveText("From / To below");
  await expect(page.getByTestId("audit-date-ignored")).toHaveCount(0);
  // Picking a range then means that range: the date leaves the field and the address.
  await filters.getByLabel("Time range").selectOption("24h");
  await expect(filters.getByLabel("From", { exact: true })).toHaveValue("");
  await filters.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/\/audit\?range=24h$/);

  // From after To, typed in the fields: refused there, the view stays as it was.
  await page.goto("/audit");
  await filters.getByLabel("Event type").selectOption("login");
  await filters.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/\/audit\?type=login$/);
  await filters.getByLabel("From", { exact: true }).fill("2026-06-02T10:00");
  await filters.getByLabel("To", { exact: true }).fill("2026-06-01T10:00");
  await filters.getByRole("button", { name: "Apply filters" }).click();
  await expect(page.getByTestId("audit-range-error")).toHaveText(
    "From (2026-06-02 10:00 UTC) is after To (2026-06-01 10:00 UTC), so no event can fall between them: swap the two dates.",
  );
  await expect(page).toHaveURL(/\/audit\?type=login$/);
  // The same range in a shared address: the same words, and no "0 events" that would read as a quiet week.
  await page.goto(`/audit?from=${encodeURIComponent("2026-06-02T10:00:00Z")}&to=${encodeURIComponent("2026-06-01T10:00:00Z")}`);
  await expect(page.getByTestId("audit-range-error")).toContainText("is after To");
  await expect(page.getByTestId("audit-count")).not.toContainText("0 events");
  // The server says the same to whoever asks it directly.
  const res = await page.request.get(`/api/audit/export?format=jsonl&from=${Date.UTC(2026, 5, 2)}&to=${Date.UTC(2026, 5, 1)}`);
  expect(res.status()).toBe(400);
  expect(await res.text()).toContain("is after To");

  // Each applied filter is its own history entry: Back returns to the unfiltered view.
  await page.goto("/audit");
  await filters.getByLabel("Event type").selectOption("login");
  await filters.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/\/audit\?type=login$/);
  await page.goBack();
  await expect(page).toHaveURL(/\/audit$/);
  await expect(filters.getByLabel("Event type")).toHaveValue("");
});

test("the Overview's refusals figure, its link, the audit page's count and its refusals chart say one number (#41 item 5)", async ({ page }) => {
  // A refused sign-in (no skill, no tool): the chart once left these out and said "No refusals in this range".
  await page.goto("/login");
  await page.getByLabel("Email").fill(DEMO_ADMIN);
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("login-error")).toBeVisible();
  await signInAsAdmin(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/");
  const figure = page.getByTestId("figure-refusals (24 h)");
  const n = Number((await figure.locator("div").first().innerText()).trim());
  expect(n).toBeGreaterThan(0);
  await expect(page.getByTestId("overview")).toContainText(new RegExp(`${n} refusals? \\(.*\\d+ sign-ins?`));
  await figure.click();
  await expect(page).toHaveURL(/outcome=refused/);
  await expect(page.getByTestId("audit-count")).toHaveText(new RegExp(`^${n} events?$`));
  const chart = page.getByTestId("chart-refusals");
  await expect(chart).toContainText(`Refusals: ${n}`);
  await expect(chart).not.toContainText("No refusals in this range.");
  await expect(chart).toContainText("sign-ins");
  // The audit page and the Overview (one more figure now) fit 1280 px.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
  await page.goto("/");
  await expect(page.getByTestId("figure-with high-severity problems")).toBeVisible({ timeout: 30_000 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
});
