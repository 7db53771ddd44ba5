// Telemetry in, end to end: an admin makes a telemetry:write token on the Access tokens page, Claude Code's
// events (as its documentation shapes them) arrive from two machines through the OpenTelemetry SDK's own
// exporters (JSON and protobuf) at the running console, and the audit page shows them by source: the chart says
// "Claude Code on 2 machines", the rows name the agent and host, and filtering to the console hides them.
import { OTLPLogExporter as JsonLogExporter } from "@opentelemetry/exporter-logs-otlp-http";
import { OTLPLogExporter as ProtoLogExporter } from "@opentelemetry/exporter-logs-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { LoggerProvider, SimpleLogRecordProcessor } from "@opentelemetry/sdk-logs";
import { expect, test } from "./page-errors";
import { signInAsAdmin } from "./helpers";

async function sendSkillActivation(exporter: JsonLogExporter | ProtoLogExporter, host: string, skill: string) {
  const resource = resourceFromAttributes({ "service.name": "claude-code", "service.version": "2.1.130", "host.name": host });
  const provider = new LoggerProvider({ resource, processors: [new SimpleLogRecordProcessor({ exporter })] });
  provider.getLogger("com.anthropic.claude_code.events").emit({
    body: "claude_code.skill_activated",
    timestamp: Date.now(),
    attributes: {
      "event.name": "skill_activated",
      "event.timestamp": new Date().toISOString(),
      "session.id": `e2e-session-${host}`,
      "user.email": "dev@omniforge.local",
      "skill.name": skill,
      "skill.source": "userSettings",
      invocation_trigger: "user-slash",
    },
  });
  await provider.forceFlush();
  await provider.shutdown();
}

test("agents' telemetry lands in the audit and the page filters and charts it by source", async ({ page, baseURL }) => {
  const skill = `e2e-telemetry-${Date.now()}`;
  await signInAsAdmin(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Tokens" }).click();
  const form = page.getByRole("form", { name: "Create token" });
  await form.getByLabel("Token name").fill(`e2e claude telemetry ${Date.now()}`);
  await form.getByLabel("telemetry:write").check();
  await form.getByRole("button", { name: "Create token" }).click();
  const token = (await page.getByTestId("token-value").textContent())!.trim();
  expect(token).toMatch(/^omf_/);

  const url = `${baseURL}/api/otel/v1/logs`;
  const headers = { Authorization: `Bearer ${token}` };
  await sendSkillActivation(new JsonLogExporter({ url, headers }), "e2e-laptop-1", skill);
  await sendSkillActivation(new ProtoLogExporter({ url, headers }), "e2e-laptop-2", skill);

  // A wrong token is refused and lands nothing.
  const refused = await fetch(url, { method: "POST", headers: { "content-type": "application/json", Authorization: "Bearer omf_nope" }, body: "{}" });
  expect(refused.status).toBe(401);

  await page.goto(`/audit?range=24h&skill=${skill}`);
  await expect(page.getByTestId("audit-count")).toHaveText("2 events");
  await expect(page.getByTestId("chart-sources")).toContainText("Claude Code on 2 machines");
  await expect(page.getByTestId("chart-top-skills")).toContainText(skill);
  const sources = page.getByTestId("audit-row-source");
  await expect(sources).toHaveCount(2);
  await expect(sources.filter({ hasText: "e2e-laptop-1" })).toContainText("Claude Code");
  await expect(sources.filter({ hasText: "e2e-laptop-2" })).toContainText("Claude Code");

  // Filter through the form: the console's own events hold none of them; Claude Code's hold both.
  const filters = page.getByRole("form", { name: "Audit filters" });
  await filters.getByLabel("Source").selectOption("console");
  await filters.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/source=console/);
  await expect(page.getByTestId("audit-empty")).toBeVisible();
  await page.getByRole("form", { name: "Audit filters" }).getByLabel("Source").selectOption("claude-code");
  await page.getByRole("form", { name: "Audit filters" }).getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/source=claude-code/);
  await expect(page.getByTestId("audit-row")).toHaveCount(2);
  await expect(page.getByTestId("audit-count")).toHaveText("2 events");
});
