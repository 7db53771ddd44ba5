// Issue #12 items 1–2 in the browser: a linked skill folder that leaves its layer is listed as invalid with the
// reason, cannot be opened or read, and can be deleted (the link, never its target); a link to / in a layer
// does not stop /api/health from answering. Links are made on disk, as a git checkout or a hostile author would.
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "./page-errors";
import { E2E_HOME } from "../playwright.config";
import { signInAsAdmin } from "./helpers";

const PROJECT_SKILLS = path.join(E2E_HOME, "demo-project", ".omniforge", "skills");
const stamp = Date.now().toString(36);

test("a link to / in a layer: health keeps answering", async ({ request }) => {
  const link = path.join(PROJECT_SKILLS, `rootfs-${stamp}`);
  fs.symlinkSync("/", link);
  try {
    await new Promise((r) => setTimeout(r, 500)); // the watcher sees the link
    for (let i = 0; i < 5; i++) {
      const t0 = Date.now();
      const res = await request.get("/api/health", { timeout: 5000 });
      expect(res.status()).toBe(200);
      expect(Date.now() - t0).toBeLessThan(3000);
      await new Promise((r) => setTimeout(r, 200));
    }
  } finally {
    fs.unlinkSync(link);
  }
});

test("a linked skill folder leaving its layer is listed as invalid, refused, and deletable", async ({ page }) => {
  const name = `evil-${stamp}`;
  const link = path.join(PROJECT_SKILLS, name);
  const secrets = path.join(E2E_HOME, "secrets");
  const before = fs.readdirSync(secrets).sort();
  fs.symlinkSync(secrets, link);
  await signInAsAdmin(page);

  await page.goto("/skills");
  await page.getByLabel("Search skills").fill(name);
  const row = page.getByTestId(`skill-row-project-${name}`);
  await expect(row).toBeVisible();
  await expect(row).toContainText(/invalid/i);
  await expect(row.getByTestId("invalid-reason")).toContainText("outside its layer folder");

  // Reading through the link is refused at the server, whatever the page shows.
  const secretFile = before[0]!;
  const res = await page.request.get(
    `/api/trpc/skill.readFile?input=${encodeURIComponent(JSON.stringify({ json: { ref: { layer: "project", skill: name }, path: secretFile } }))}`,
  );
  expect(res.status()).toBe(403);
  expect(await res.text()).not.toContain(fs.readFileSync(path.join(secrets, secretFile), "utf8").trim().slice(0, 16));

  await row.getByRole("link", { name }).click();
  await expect(page.getByTestId("refused-link")).toContainText("outside its layer folder");
  await page.getByRole("button", { name: "Delete this link…" }).click();
  await page.getByRole("button", { name: "Remove link" }).click();
  await expect(page).toHaveURL(/\/skills$/);
  expect(fs.lstatSync(link, { throwIfNoEntry: false })).toBeUndefined();
  expect(fs.readdirSync(secrets).sort()).toEqual(before);
});
