import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { claudeCodeTelemetryEnv, syncCommand, TELEMETRY_INTAKE_PATH } from "./tokens";

const repo = path.resolve(import.meta.dirname, "..", "..");

describe("the usage shown with a new token", () => {
  it("points the OTLP exporters at the console's own intake routes (the exporter adds /v1/logs and /v1/metrics)", () => {
    const env = Object.fromEntries(claudeCodeTelemetryEnv("https://console.example.com", "omf_x"));
    expect(env.OTEL_EXPORTER_OTLP_ENDPOINT).toBe(`https://console.example.com${TELEMETRY_INTAKE_PATH}`);
    expect(env.OTEL_EXPORTER_OTLP_HEADERS).toBe("Authorization=Bearer omf_x");
    expect(env.CLAUDE_CODE_ENABLE_TELEMETRY).toBe("1");
    // Moving the route modules without this path would leave every pasted snippet sending into a 404.
    for (const signal of ["logs", "metrics"]) expect(fs.existsSync(path.join(repo, "app", TELEMETRY_INTAKE_PATH, "v1", signal, "route.ts"))).toBe(true);
  });

  it("gives sync the console's address and the token", () => {
    expect(syncCommand("http://127.0.0.1:3000", "omf_y")).toBe("omniforge sync --from http://127.0.0.1:3000 --token omf_y --agent claude-code --scope user");
  });
});
