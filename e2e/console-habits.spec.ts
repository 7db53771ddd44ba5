// What people coming from other consoles expect (issue 41 item 10), in a browser set to India's zone (UTC+5:30, so a
// time shown in UTC cannot pass for local): audit events read as labelled fields with their times in the viewer's zone
// and UTC on hover, a new token shown with the commands that use it (run here: the sync command and the telemetry
// intake), the Users page saying what each role can do, and an import over an existing skill kept as a new version.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { zipSync } from "fflate";
import { expect, test } from "./page-errors";
import { monaco } from "./editor-helpers";
import { DEMO_ADMIN, signInAsAdmin } from "./helpers";
import { ROLE_RIGHTS } from "../server/domain/vocabulary";

test.use({ timezoneId: "Asia/Kolkata", locale: "en-US" });

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "..");
const stamp = Date.now().toString(36);
const UTC_TEXT = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/;

test("an audit event reads as labelled fields, its time in the viewer's zone with UTC on hover, the raw record behind Raw", async ({ page }) => {
  await signInAsAdmin(page);
  await page.goto("/audit?type=login");
  const row = page.getByTestId("audit-row").first();
  await expect(row).toBeVisible();
  const time = row.locator("time");
  await expect(time).toContainText("GMT+5:30");
  await expect(time).toHaveAttribute("title", UTC_TEXT);
  await row.click();

  const event = page.getByTestId("audit-event");
  await expect(event.getByTestId("audit-field-event")).toContainText("login");
  await expect(event.getByTestId("audit-field-outcome")).toContainText("ok");
  await expect(event.getByTestId("audit-field-when").locator("time")).toContainText("GMT+5:30");
  await expect(page.getByTestId("audit-details")).toHaveCount(0);
  await event.getByRole("button", { name: "Raw" }).click();
  expect(JSON.parse((await page.getByTestId("audit-details").textContent()) ?? "{}")).toMatchObject({ type: "login", actorEmail: DEMO_ADMIN });

  // The actor is a link to their events: the filter follows.
  await event.getByTestId("audit-field-actor").getByRole("button", { name: DEMO_ADMIN }).click();
  await expect(page).toHaveURL(/[?&]user=/);
  await expect(page.getByTestId("audit-row").first()).toContainText(DEMO_ADMIN);
});

test("a new token comes with the sync command and the Claude Code telemetry variables, and both work as shown", async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  await signInAsAdmin(page);
  await page.goto("/tokens");
  const form = page.getByRole("form", { name: "Create token" });
  await form.getByLabel("Token name").fill(`habits ${stamp}`);
  await form.getByLabel("telemetry:write").check();
  await form.getByRole("button", { name: "Create token" }).click();
  const token = (await page.getByTestId("token-value").textContent())!.trim();

  // The sync command, run as pasted (with --dry-run), reaches this console with this token.
  const command = (await page.getByTestId("usage-sync").textContent())!.trim();
  expect(command).toBe(`omniforge sync --from ${baseURL} --token ${token} --agent claude-code --scope user`);
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "omniforge-e2e-habits-"));
  try {
    const { stdout } = await run(process.execPath, ["bin/omniforge.mjs", ...command.split(" ").slice(1), "--dry-run"], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: home } as unknown as NodeJS.ProcessEnv,
      timeout: 90_000,
    });
    expect(stdout).toContain("dry run: nothing written");
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }

  // The telemetry variables point an OTLP exporter at an intake that takes this token.
  const vars = Object.fromEntries(
    (await page.getByTestId("usage-telemetry").textContent())!
      .trim()
      .split("\n")
      .map((l) => /^export (\w+)=(.*)$/.exec(l)!.slice(1, 3).map((v) => v.replace(/^"|"$/g, ""))),
  );
  expect(vars.CLAUDE_CODE_ENABLE_TELEMETRY).toBe("1");
  const [header, value] = [vars.OTEL_EXPORTER_OTLP_HEADERS!.split("=")[0]!, vars.OTEL_EXPORTER_OTLP_HEADERS!.split("=").slice(1).join("=")];
  const sent = await page.request.post(`${vars.OTEL_EXPORTER_OTLP_ENDPOINT}/v1/logs`, { headers: { [header]: value, "content-type": "application/json" }, data: { resourceLogs: [] } });
  expect(sent.status()).toBe(200);
});

test("the Users page says what each role can do, from the domain's one list of rights", async ({ page }) => {
  await signInAsAdmin(page);
  await page.goto("/users");
  const rights = page.getByTestId("role-rights");
  for (const r of ROLE_RIGHTS) await expect(rights.getByTestId(`rights-${r.minRole}`)).toContainText(r.right);
  await expect(rights.getByTestId("rights-admin")).toContainText("everything an author can");
});

test("importing a skill that exists offers to replace it as a new version, kept in its history and restorable", async ({ page }) => {
  test.setTimeout(120_000);
  const folder = `replaced-${stamp}`;
  const zipOf = (text: string) => Buffer.from(zipSync({ [`${folder}/SKILL.md`]: new TextEncoder().encode(`---\nname: ${folder}\ndescription: ${text} Use it to test import.\n---\n\n${text}\n`) }));
  await signInAsAdmin(page);
  const importZip = async (name: string, zip: Buffer) => {
    await page.goto("/skills");
    await page.getByRole("button", { name: "Import .zip" }).click();
    const region = page.getByRole("region", { name: "Import skill" });
    await region.getByLabel("Skill archive").setInputFiles({ name, mimeType: "application/zip", buffer: zip });
    await expect(page.getByTestId("import-report")).toContainText(folder);
    return region;
  };
  let region = await importZip("first.zip", zipOf("First text."));
  await region.getByRole("button", { name: /^Import/ }).click();
  await expect(page.getByTestId("import-done")).toBeVisible();

  region = await importZip("second.zip", zipOf("Second text."));
  await expect(page.getByTestId("import-exists")).toContainText("replace it as a new version");
  await region.getByRole("button", { name: `Replace ${folder} as a new version` }).click();
  await expect(page.getByTestId("import-done")).toContainText("Replaced as a new version");

  await page.getByTestId("import-done").getByRole("link", { name: `Open ${folder}` }).click();
  await expect(monaco(page)).toContainText("Second text.", { timeout: 30_000 });
  await page.getByRole("tab", { name: /History/ }).click();
  const before = page.getByTestId("history").locator("li", { hasText: "before replacing with second.zip" });
  await before.getByRole("button", { name: "Restore" }).click();
  await before.getByRole("button", { name: "Confirm restore" }).click();
  await expect(monaco(page)).toContainText("First text.");

  // The replace is on record, with the version it kept.
  await page.goto(`/audit?type=skill_imported&skill=${folder}`);
  await page.getByTestId("audit-row").first().click();
  await expect(page.getByTestId("audit-detail-replaced")).toContainText("true");
  await expect(page.getByTestId("audit-detail-previousVersionId")).toContainText(/\d+/);
});
