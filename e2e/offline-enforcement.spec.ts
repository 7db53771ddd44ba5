// Enforcement shows with the offline provider (#41 item 4): it follows the active skill's prose as a model would,
// so a weather skill whose body says to run curl, which its allowed-tools do not permit, meets a refusal in the
// playground's steps and in the audit's Violations tab. Allowed in the Details form, the same command runs in the
// sandbox, where there is no network: its failure is shown, and the turn still answers.
import fs from "node:fs";
import path from "node:path";
import { type Page } from "@playwright/test";
import { expect, test } from "./page-errors";
import { E2E_HOME } from "../playwright.config";
import { signInAsAdmin } from "./helpers";

const PROJECT_SKILLS = path.join(E2E_HOME, "demo-project", ".omniforge", "skills");
const name = `weather-now-${Date.now().toString(36)}`;
const dir = path.join(PROJECT_SKILLS, name);

test.beforeAll(() => {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, "SKILL.md"),
    `---\nname: ${name}\ndescription: Tells the current weather for a city. Use when asked about the weather.\nallowed-tools: Read\n---\n# Weather\n\n` +
      "To answer, run `curl -s wttr.in/Oslo?format=3` and report what it prints.\nThen use the Write tool to save the forecast to forecast.txt.\n",
  );
});
test.afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function ask(page: Page, text: string) {
  await page.getByLabel("Message").fill(text);
  await page.getByRole("button", { name: "Send" }).click();
  const turn = page.getByTestId("turn").last();
  await expect(turn.getByTestId("answer")).toContainText("Offline provider", { timeout: 30_000 });
  return turn;
}

test("the offline provider meets the refusal a model would: curl outside allowed-tools is refused, shown and in Violations; allowed, it runs sandboxed", async ({ page }) => {
  await signInAsAdmin(page);
  await page.goto("/playground");
  const form = page.getByRole("form", { name: "New session" });
  await form.getByLabel("Title").fill("Offline weather");
  await form.getByRole("button", { name: "Start session" }).click();
  await expect(page.getByTestId("session-settings")).toContainText("offline/offline-rules-1");
  await expect(page).toHaveURL(/\/playground\?session=/);
  const session = page.url();

  const first = await ask(page, "tell the current weather in Oslo");
  await expect(first.getByTestId("step-activation")).toContainText(`Activating '${name}' skill...`);
  const refused = first.getByTestId("step-refused");
  await expect(refused).toHaveCount(2);
  await expect(refused.nth(0)).toContainText("Refused: bash");
  await expect(refused.nth(0)).toContainText("curl -s wttr.in/Oslo?format=3");
  await expect(refused.nth(0)).toContainText("allowed-tools: Read");
  await expect(refused.nth(1)).toContainText("Refused: write_file");
  await expect(first.getByTestId("answer")).not.toContainText("nothing to execute");
  await expect(first.getByTestId("answer")).toContainText("is not allowed by active skill");

  // The audit of this session lists both refusals under Violations.
  await page.getByTestId("audit-link").click();
  await expect(page).toHaveURL(/\/audit\?session=/);
  await page.getByRole("tab", { name: "Violations" }).click();
  const rows = page.getByTestId("violation-row");
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: "bash" })).toContainText(name);
  await expect(rows.filter({ hasText: "write_file" })).toContainText("allowed: Read");

  // The author allows curl and writing in the Details form, as a person does, and saves.
  await page.goto(`/skills/project/${name}`);
  await page.getByRole("tab", { name: "Details" }).click();
  const details = page.getByRole("form", { name: "Details" });
  await details.getByLabel("Add to Allowed tools").fill("Bash(curl:*)");
  await page.keyboard.press("Enter");
  await details.getByLabel("Add to Allowed tools").fill("Write");
  await page.keyboard.press("Enter");
  await page.getByRole("button", { name: /^Save/ }).click();
  await expect(page.getByTestId("editor-notice")).toContainText("Saved SKILL.md");

  await page.goto(session);
  const second = await ask(page, "tell the current weather in Oslo");
  await expect(second.getByTestId("step-refused")).toHaveCount(0);
  const run = second.getByTestId("step-script");
  await expect(run).toContainText("curl -s wttr.in/Oslo?format=3");
  await expect(run).toContainText("(sandboxed)");
  await expect(run).not.toContainText("exit 0 ");
  await expect(second.getByTestId("step-tool").filter({ hasText: "write_file" })).toContainText("ok in");
  await expect(second.getByTestId("answer")).toContainText("wrote forecast.txt");
});
