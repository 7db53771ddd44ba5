// The OTLP/HTTP receiver over real HTTP on 127.0.0.1 (the console's own server wrapper, so its body limit
// applies) against a real SQLite file, fed by the OpenTelemetry JS SDK's own exporters in both encodings, with
// the events Claude Code and Codex document (README, "Telemetry from agents"). Then the refusals: tokens,
// scopes, sizes and malformed bodies, none of which writes a row.
import { gzipSync } from "node:zlib";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";

process.env.OMNIFORGE_AUDIT_STDOUT = "0";
process.env.OMNIFORGE_TELEMETRY_MAX_BYTES = String(64 * 1024);

import { OTLPLogExporter as JsonLogExporter } from "@opentelemetry/exporter-logs-otlp-http";
import { OTLPLogExporter as ProtoLogExporter } from "@opentelemetry/exporter-logs-otlp-proto";
import { AggregationTemporalityPreference, OTLPMetricExporter as JsonMetricExporter } from "@opentelemetry/exporter-metrics-otlp-http";
import { OTLPMetricExporter as ProtoMetricExporter } from "@opentelemetry/exporter-metrics-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BatchLogRecordProcessor, LoggerProvider } from "@opentelemetry/sdk-logs";
import { MeterProvider, PeriodicExportingMetricReader } from "@opentelemetry/sdk-metrics";
import { auditSinkFor, flushAudit, verifyChain } from "../services/audit";
import { ROW_FIELDS } from "../services/audit/rows";
import type { StoredRow } from "../services/audit/verify";
import { auditEvents } from "../../db/schema/audit";
import { and, eq, gt, isNotNull, max, type SQL } from "drizzle-orm";
import { createToken } from "../services/tokens";
import { createUser } from "../services/users/users";
import { MemoryAuditSink } from "../runtime/audit/events";
import { serveFetch } from "../test-support/http-server";
import { tempDb } from "../test-support/temp-db";
import { handleOtlpRequest } from "./otel-route";

let t: ReturnType<typeof tempDb>;
let server: Awaited<ReturnType<typeof serveFetch>>;
let token: string;
let catalogOnly: string;
let aliceId: string;

beforeAll(async () => {
  t = tempDb();
  const alice = await createUser(t.db, { email: "alice@x.io", role: "author", password: "password1" });
  aliceId = alice.id;
  const audit = { audit: new MemoryAuditSink(), actor: { id: alice.id } };
  token = (await createToken(t.db, { id: alice.id, role: "author" }, { name: "claude on laptop", scopes: "telemetry:write" }, audit)).token;
  catalogOnly = (await createToken(t.db, { id: alice.id, role: "author" }, { name: "sync", scopes: "catalog:read" }, audit)).token;
  server = await serveFetch(async (req) => {
    const path = new URL(req.url).pathname;
    const signal = path.endsWith("/v1/metrics") ? "metrics" : "logs";
    return handleOtlpRequest(req, signal, { db: t.db, audit: auditSinkFor(t.db) });
  });
});
afterAll(async () => {
  await server.close();
  await auditSinkFor(t.db).close();
  await t.cleanup();
});
// Each test looks only at the rows written since it started (rows are never deleted: that would break the chain).
let since = 0;
beforeEach(async () => {
  await flushAudit(t.db);
  since = (await t.db.select({ n: max(auditEvents.id) }).from(auditEvents))[0]!.n ?? 0;
});
afterEach(() => flushAudit(t.db));

/** Agents' rows written since the test began (and matching `extra`), in order. */
const rows = async (extra?: SQL): Promise<StoredRow[]> => {
  await flushAudit(t.db);
  return (await t.db.select(ROW_FIELDS).from(auditEvents).where(and(gt(auditEvents.id, since), isNotNull(auditEvents.sourceAgent), extra)).orderBy(auditEvents.id)) as StoredRow[];
};
const auth = (tk = token) => ({ Authorization: `Bearer ${tk}` });

// Resources as the agents set them: Claude Code's service.name is "claude-code"; Codex's Rust CLI "codex_cli_rs".
// host.name comes from OTEL_RESOURCE_ATTRIBUTES, which the README tells people to set.
const claudeResource = resourceFromAttributes({ "service.name": "claude-code", "service.version": "2.1.130", "host.name": "alice-laptop" });
const codexResource = resourceFromAttributes({ "service.name": "codex_cli_rs", "service.version": "0.146.0", "host.name": "build-box-3" });

// Claude Code's standard attributes on every event (monitoring docs).
const standard = { "session.id": "sess-42", "user.email": "alice@x.io", "user.id": "a1b2c3", "organization.id": "org-1", "terminal.type": "vscode" };

async function sendLogs(exporter: JsonLogExporter | ProtoLogExporter, resource: typeof claudeResource, records: { body: string; attributes: Record<string, string | number> }[]) {
  // Batched, as Claude Code's exporter sends them: one request, its records in order (one request per record went
  // out in parallel, and the console may take parallel requests in any order).
  const provider = new LoggerProvider({ resource, processors: [new BatchLogRecordProcessor({ exporter })] });
  const logger = provider.getLogger("com.anthropic.claude_code.events");
  for (const r of records) logger.emit({ body: r.body, attributes: r.attributes, timestamp: Date.now() });
  await provider.forceFlush();
  await provider.shutdown();
}

const claudeEvents = [
  {
    body: "claude_code.skill_activated",
    attributes: { ...standard, "event.name": "skill_activated", "event.timestamp": new Date().toISOString(), "event.sequence": 1, "skill.name": "pdf-forms", invocation_trigger: "claude-proactive", "skill.source": "userSettings" },
  },
  {
    body: "claude_code.tool_decision",
    attributes: { ...standard, "event.name": "tool_decision", "event.sequence": 2, tool_name: "Bash", tool_use_id: "toolu_1", decision: "reject", source: "user_reject" },
  },
  {
    body: "claude_code.tool_result",
    attributes: { ...standard, "event.name": "tool_result", "event.sequence": 3, tool_name: "Read", tool_use_id: "toolu_2", success: "true", duration_ms: 12, decision_type: "accept", decision_source: "config" },
  },
  // Not kept: counted and dropped.
  { body: "claude_code.api_request", attributes: { ...standard, "event.name": "api_request", model: "claude-sonnet-4-5", cost_usd: 0.01, duration_ms: 900 } },
  { body: "claude_code.user_prompt", attributes: { ...standard, "event.name": "user_prompt", prompt_length: 42 } },
];

describe("Claude Code's events, as its exporter sends them", () => {
  for (const [encoding, Exporter] of [
    ["http/json", JsonLogExporter],
    ["http/protobuf", ProtoLogExporter],
  ] as const) {
    it(`${encoding}: skill activations, tool decisions and results become audit rows with their source`, async () => {
      await sendLogs(new Exporter({ url: `${server.url}/api/otel/v1/logs`, headers: auth() }), claudeResource, claudeEvents);
      const got = await rows();
      expect(got.map((r) => r.type)).toEqual(["skill_activated", "agent_tool_decision", "agent_tool_result"]);
      for (const r of got) {
        expect(r).toMatchObject({ sourceAgent: "claude-code", sourceVersion: "2.1.130", sourceHost: "alice-laptop", sourceUser: "alice@x.io", sessionId: "sess-42", actorId: aliceId });
      }
      expect(got[0]).toMatchObject({ skill: "pdf-forms", outcome: "ok" });
      expect(JSON.parse(got[0]!.details!)).toMatchObject({ event: "claude_code.skill_activated", trigger: "claude-proactive", skillSource: "userSettings" });
      expect(got[1]).toMatchObject({ tool: "Bash", outcome: "refused" });
      expect(got[2]).toMatchObject({ tool: "Read", outcome: "ok", durationMs: 12 });
      expect(await verifyChain(t.db)).toMatchObject({ ok: true });
    });
  }

  it("a lone surrogate in an attribute (JSON's \\ud800, or a 200-character cut through an emoji) keeps the audit chain verifiable", async () => {
    const attr = (key: string, v: string) => ({ key, value: { stringValue: v } });
    // JSON.parse turns "\ud800" into a lone surrogate, which SQLite stores as U+FFFD: hashed as sent, the row
    // read back no longer matched its hash and the audit reported tampering.
    const body = `{"resourceLogs":[{"resource":{"attributes":[${JSON.stringify(attr("service.name", "claude-code"))},{"key":"host.name","value":{"stringValue":"box\\ud800"}}]},"scopeLogs":[{"logRecords":[{"attributes":[${JSON.stringify(attr("event.name", "skill_activated"))},{"key":"skill.name","value":{"stringValue":"pdf\\udc00"}},${JSON.stringify(attr("session.id", "a".repeat(199) + "😀"))}]}]}]}]}`;
    const res = await fetch(`${server.url}/api/otel/v1/logs`, { method: "POST", headers: { ...auth(), "content-type": "application/json" }, body });
    expect(res.status).toBe(200);
    expect(await rows()).toMatchObject([{ skill: "pdf\ufffd", sourceHost: "box\ufffd", sessionId: "a".repeat(199) + "\ufffd" }]);
    expect(await verifyChain(t.db)).toMatchObject({ ok: true });
  });

  it("answers what it dropped as OTLP's partialSuccess, and a request of only unknown events is still a success", async () => {
    const body = {
      resourceLogs: [
        {
          resource: { attributes: [{ key: "service.name", value: { stringValue: "claude-code" } }] },
          scopeLogs: [
            {
              logRecords: [
                { body: { stringValue: "claude_code.api_request" }, attributes: [{ key: "event.name", value: { stringValue: "api_request" } }] },
                { body: { stringValue: "claude_code.api_request" }, attributes: [{ key: "event.name", value: { stringValue: "api_request" } }] },
                { body: { stringValue: "claude_code.brand_new_event" }, attributes: [{ key: "event.name", value: { stringValue: "brand_new_event" } }] },
              ],
            },
          ],
        },
      ],
    };
    const res = await fetch(`${server.url}/api/otel/v1/logs`, { method: "POST", headers: { ...auth(), "content-type": "application/json" }, body: JSON.stringify(body) });
    expect(res.status).toBe(200);
    const json = (await res.json()) as { partialSuccess: { rejectedLogRecords: string; errorMessage: string } };
    expect(json.partialSuccess.rejectedLogRecords).toBe("3");
    expect(json.partialSuccess.errorMessage).toMatch(/api_request ×2.*brand_new_event ×1/);
    expect(await rows()).toEqual([]);
  });
});

describe("Codex", () => {
  it("its tool events (http/protobuf) become audit rows", async () => {
    const std = { "conversation.id": "conv-9", "app.version": "0.146.0", "user.email": "bob@x.io" };
    await sendLogs(new ProtoLogExporter({ url: `${server.url}/api/otel/v1/logs`, headers: auth() }), codexResource, [
      { body: "codex.tool_decision", attributes: { ...std, "event.name": "codex.tool_decision", tool_name: "shell", call_id: "c1", decision: "approved", source: "config" } },
      { body: "codex.tool_result", attributes: { ...std, "event.name": "codex.tool_result", tool_name: "shell", call_id: "c1", duration_ms: 340, success: "false" } },
      { body: "codex.api_request", attributes: { ...std, "event.name": "codex.api_request", duration_ms: 800 } },
    ]);
    expect(await rows()).toMatchObject([
      { type: "agent_tool_decision", tool: "shell", outcome: "allowed", sourceAgent: "codex", sourceVersion: "0.146.0", sourceHost: "build-box-3", sourceUser: "bob@x.io", sessionId: "conv-9" },
      { type: "agent_tool_result", tool: "shell", outcome: "failed", durationMs: 340 },
    ]);
  });

  for (const [encoding, Exporter] of [
    ["http/protobuf", ProtoMetricExporter],
    ["http/json", JsonMetricExporter],
  ] as const) {
    it(`${encoding}: its codex.skill.injected counter (cumulative) becomes skill activations counted once each`, async () => {
      const exporter = new Exporter({ url: `${server.url}/api/otel/v1/metrics`, headers: auth(), temporalityPreference: AggregationTemporalityPreference.CUMULATIVE });
      const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
      const provider = new MeterProvider({ resource: codexResource, readers: [reader] });
      const counter = provider.getMeter("codex").createCounter("codex.skill.injected");
      const tokens = provider.getMeter("codex").createCounter("codex.tool.call"); // not kept
      const labels = { status: "ok", skill: "pdf-forms", invoke_type: "explicit" };
      counter.add(1, labels);
      tokens.add(5, { tool: "shell" });
      await reader.forceFlush();
      counter.add(1, labels);
      counter.add(2, { ...labels, skill: "release-notes" });
      await reader.forceFlush();
      await reader.forceFlush(); // nothing new: the same cumulative values again add nothing
      await provider.shutdown();
      const got = await rows(and(eq(auditEvents.type, "skill_activated"), eq(auditEvents.sourceAgent, "codex")));
      // A point is one row with its count (details.count, absent for one).
      const count = (skill: string) => got.filter((r) => r.skill === skill).reduce((n, r) => n + ((JSON.parse(String(r.details ?? "{}")) as { count?: number }).count ?? 1), 0);
      expect(count("pdf-forms")).toBe(2);
      expect(count("release-notes")).toBe(2);
      expect(got[0]).toMatchObject({ sourceHost: "build-box-3", sourceVersion: "0.146.0", outcome: "ok", actorId: aliceId });
      expect((await rows()).filter((r) => r.tool === "shell" || r.type !== "skill_activated")).toEqual([]);
    });
  }
});

describe("refused, and nothing written", () => {
  const post = (body: BodyInit, headers: Record<string, string>, path = "/api/otel/v1/logs") => fetch(`${server.url}${path}`, { method: "POST", headers, body });
  const oneSkill = JSON.stringify({
    resourceLogs: [{ resource: { attributes: [{ key: "service.name", value: { stringValue: "claude-code" } }] }, scopeLogs: [{ logRecords: [{ body: { stringValue: "claude_code.skill_activated" }, attributes: [{ key: "event.name", value: { stringValue: "skill_activated" } }, { key: "skill.name", value: { stringValue: "pdf-forms" } }] }] }] }],
  });

  it("no token or an unknown one: 401; a token without telemetry:write: 403", async () => {
    const json = { "content-type": "application/json" };
    expect((await post(oneSkill, json)).status).toBe(401);
    expect((await post(oneSkill, { ...json, ...auth("omf_nope") })).status).toBe(401);
    const res = await post(oneSkill, { ...json, ...auth(catalogOnly) });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { message: string }).message).toMatch(/telemetry:write/);
    // The SDK's exporter with a wrong token: its export fails and nothing lands.
    await sendLogs(new ProtoLogExporter({ url: `${server.url}/api/otel/v1/logs`, headers: auth(catalogOnly) }), claudeResource, claudeEvents);
    expect(await rows()).toEqual([]);
  });

  it("a body over OMNIFORGE_TELEMETRY_MAX_BYTES, sent whole or gzipped, is a 413", async () => {
    const big = JSON.stringify({ resourceLogs: [], pad: "x".repeat(70 * 1024) });
    expect((await post(big, { ...auth(), "content-type": "application/json" })).status).toBe(413);
    const bomb = gzipSync(Buffer.from(big));
    expect(bomb.byteLength).toBeLessThan(64 * 1024);
    expect((await post(bomb, { ...auth(), "content-type": "application/json", "content-encoding": "gzip" })).status).toBe(413);
    expect(await rows()).toEqual([]);
  });

  it("a gzipped request within the limit is accepted", async () => {
    const res = await post(gzipSync(Buffer.from(oneSkill)), { ...auth(), "content-type": "application/json", "content-encoding": "gzip" });
    expect(res.status).toBe(200);
    expect(await rows()).toMatchObject([{ type: "skill_activated", skill: "pdf-forms", sourceAgent: "claude-code" }]);
  });

  it("a million empty records (3 MB of JSON, 2 MB of protobuf) are a 400 before the schema, not seconds of the console's thread", async () => {
    // A bigger body limit than this file's server: the route itself, as the console mounts it.
    const send = (body: BodyInit, type: string) =>
      handleOtlpRequest(new Request("http://127.0.0.1/api/otel/v1/logs", { method: "POST", headers: { ...auth(), "content-type": type }, body }), "logs", {
        db: t.db,
        audit: auditSinkFor(t.db),
        maxBytes: 8 * 1024 * 1024,
      });
    const json = JSON.stringify({ resourceLogs: [{ scopeLogs: [{ logRecords: new Array(1_000_000).fill({}) }] }] });
    // ExportLogsServiceRequest { resource_logs { scope_logs { log_records {} x 1,000,000 } } }: each empty record is 0x12 0x00.
    const records = new Uint8Array(2_000_000).map((_, i) => (i % 2 === 0 ? 0x12 : 0));
    const varint = (n: number) => { const out: number[] = []; for (; n > 127; n >>>= 7) out.push((n & 127) | 128); return [...out, n]; };
    const wrap = (field: number, inner: Uint8Array) => new Uint8Array([(field << 3) | 2, ...varint(inner.length), ...inner]);
    const proto = wrap(1, wrap(2, records));
    for (const [body, type] of [[json, "application/json"], [proto, "application/x-protobuf"]] as const) {
      const res = await send(body, type);
      expect(res.status).toBe(400);
      const message = type === "application/json" ? ((await res.json()) as { message: string }).message : new TextDecoder().decode(await res.arrayBuffer());
      expect(message).toMatch(/more than 500000 values .*export in smaller batches/);
    }
    expect(await rows()).toEqual([]);
  });

  it("malformed bodies are 400s with a reason, and a request with one bad record writes none of its good ones", async () => {
    const json = { ...auth(), "content-type": "application/json" };
    const proto = { ...auth(), "content-type": "application/x-protobuf" };
    let res = await post("{not json", json);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toMatch(/not JSON/);
    res = await post(JSON.stringify({ resourceLogs: "lots" }), json);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toMatch(/resourceLogs/);
    const mixed = JSON.parse(oneSkill) as { resourceLogs: { scopeLogs: { logRecords: unknown[] }[] }[] };
    mixed.resourceLogs[0]!.scopeLogs[0]!.logRecords.push({ attributes: 5 });
    res = await post(JSON.stringify(mixed), json);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toMatch(/logRecords\.1\.attributes/);
    res = await post(new Uint8Array([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x01]), proto);
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toBe("application/x-protobuf");
    res = await post(oneSkill, { ...auth(), "content-type": "text/plain" });
    expect(res.status).toBe(415);
    res = await post(JSON.stringify({ resourceMetrics: [{ scopeMetrics: [{ metrics: [{ sum: {} }] }] }] }), json, "/api/otel/v1/metrics");
    expect(res.status).toBe(400);
    // A time that is not an integer, and a body nested far deeper than any export: 400s with the reason, not 500s.
    const fractional = JSON.parse(oneSkill) as { resourceLogs: { scopeLogs: { logRecords: Record<string, unknown>[] }[] }[] };
    fractional.resourceLogs[0]!.scopeLogs[0]!.logRecords[0]!.timeUnixNano = 1.5;
    res = await post(JSON.stringify(fractional), json);
    expect([res.status, ((await res.json()) as { message: string }).message]).toEqual([400, expect.stringMatching(/logRecords\.0\.timeUnixNano/)]);
    const deep = `{"resourceLogs":[{"scopeLogs":[{"logRecords":[{"body":${'{"arrayValue":{"values":['.repeat(1000)}{}${"]}}".repeat(1000)}}]}]}]}`;
    res = await post(deep, json);
    expect([res.status, ((await res.json()) as { message: string }).message]).toEqual([400, expect.stringMatching(/nested more than 64 levels/)]);
    expect(await rows()).toEqual([]);
  });
});
