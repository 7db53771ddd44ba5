// The mapping's edge cases, on plain OTLP/JSON requests: counters that restart or arrive as deltas, clocks
// that are wrong, records that lack what the audit needs, and agents the console does not know.
import { describe, expect, it } from "vitest";
import { mapLogs, mapMetrics } from "./map";

const sender = { actorId: "u1", actorEmail: "alice@x.io" };
const received = new Date("2026-11-25T12:00:00Z");
const kv = (o: Record<string, string | number>) =>
  Object.entries(o).map(([key, v]) => ({ key, value: typeof v === "number" ? { intValue: v } : { stringValue: v } }));
const nanos = (d: Date) => String(BigInt(d.getTime()) * 1_000_000n);

function counter(value: number, temporality: 1 | 2) {
  return {
    resourceMetrics: [
      {
        resource: { attributes: kv({ "service.name": "codex_cli_rs", "host.name": "box" }) },
        scopeMetrics: [{ metrics: [{ name: "codex.skill.injected", sum: { aggregationTemporality: temporality, isMonotonic: true, dataPoints: [{ attributes: kv({ skill: "pdf-forms", status: "ok" }), asInt: String(value), startTimeUnixNano: "1", timeUnixNano: nanos(received) }] } }] }],
      },
    ],
  };
}

describe("Codex's counter", () => {
  const counted = (m: { events: { details?: Record<string, unknown> }[] }) => m.events.map((e) => e.details?.count ?? 1);

  it("a cumulative value becomes the increase since the last one, and a smaller one means the counter restarted", async () => {
    expect(counted(await mapMetrics(counter(10, 2), sender, received, (ls) => ls.map(() => 7)))).toEqual([3]);
    expect(counted(await mapMetrics(counter(3, 2), sender, received, (ls) => ls.map(() => 10)))).toEqual([3]);
    expect(counted(await mapMetrics(counter(10, 2), sender, received, (ls) => ls.map(() => 10)))).toEqual([]);
  });

  it("the last value is asked for from the series' start on, when the agent's clock is believable", async () => {
    const since: (number | null)[] = [];
    const c = counter(2, 2);
    const point = c.resourceMetrics[0]!.scopeMetrics[0]!.metrics[0]!.sum.dataPoints[0]!;
    await mapMetrics(c, sender, received, (ls) => ls.map((l) => (since.push(l.since), null))); // start "1": 1970, not believable
    point.startTimeUnixNano = nanos(new Date(received.getTime() - 3_600_000));
    await mapMetrics(c, sender, received, (ls) => ls.map((l) => (since.push(l.since), null)));
    expect(since).toEqual([null, received.getTime() - 3_600_000]);
  });

  it("a delta is taken as it is, without asking for the last value", async () => {
    const m = await mapMetrics(counter(2, 1), sender, received, () => {
      throw new Error("not asked for deltas");
    });
    expect(m.events.map((e) => [e.type, e.skill, e.source?.agent, e.source?.host, e.details?.count])).toEqual([["skill_activated", "pdf-forms", "codex", "box", 2]]);
  });

  // Issue 35 item 6: a point of 1e9 was a thousand rows (capped), so ten points in one request were 10,000.
  it("a point is one row that carries its count, however large the count", async () => {
    const m = await mapMetrics(counter(1e9, 1), sender, received, (ls) => ls.map(() => null));
    expect(counted(m)).toEqual([1e9]);
    expect(m.events[0]!.details).not.toHaveProperty("capped");
  });

  it("one request becomes at most 10,000 rows, however many points it holds; the rest are dropped by name", async () => {
    const many = counter(1_000, 1);
    const metric = many.resourceMetrics[0]!.scopeMetrics[0]!.metrics[0]!;
    const point = metric.sum.dataPoints[0]!;
    metric.sum.dataPoints = Array.from({ length: 10_490 }, (_, i) => ({ ...point, attributes: kv({ skill: `s-${i}`, status: "ok" }) }));
    const m = await mapMetrics(many, sender, received, (ls) => ls.map(() => null));
    expect(m.events).toHaveLength(10_000);
    expect([...m.dropped]).toEqual([["codex:codex.skill.injected", 490]]);
  });

  it("a time that is no integer is the receipt time, kept as reported", async () => {
    const c = counter(1, 1);
    (c.resourceMetrics[0]!.scopeMetrics[0]!.metrics[0]!.sum.dataPoints[0] as { timeUnixNano: unknown }).timeUnixNano = 1.5;
    expect((await mapMetrics(c, sender, received, (ls) => ls.map(() => null))).events[0]).toMatchObject({ at: received, details: { reportedAt: "1.5" } });
  });
});

describe("log records", () => {
  const logs = (service: string, records: { attrs: Record<string, string | number>; time?: Date }[]) => ({
    resourceLogs: [{ resource: { attributes: kv({ "service.name": service }) }, scopeLogs: [{ logRecords: records.map((r) => ({ attributes: kv(r.attrs), timeUnixNano: r.time ? nanos(r.time) : undefined })) }] }],
  });

  it("a clock far off is replaced by the receipt time, and the reported time is kept", () => {
    const future = new Date("2031-01-01T00:00:00Z");
    const m = mapLogs(logs("claude-code", [{ attrs: { "event.name": "skill_activated", "skill.name": "pdf-forms" }, time: future }]), sender, received);
    expect(m.events[0]!.at).toEqual(received);
    expect(m.events[0]!.details).toMatchObject({ reportedAt: future.toISOString() });
    const near = new Date(received.getTime() - 60_000);
    expect(mapLogs(logs("claude-code", [{ attrs: { "event.name": "skill_activated", "skill.name": "x" }, time: near }]), sender, received).events[0]!.at).toEqual(near);
  });

  it("records without what the audit needs, and other agents' events, are counted as dropped by name", () => {
    const m = mapLogs(
      logs("claude-code", [
        { attrs: { "event.name": "tool_decision", tool_name: "Bash" } }, // no decision
        { attrs: { "event.name": "skill_activated" } }, // no skill name
        { attrs: { "event.name": "skill_activated", "skill.name": "ok-skill" } },
      ]),
      sender,
      received,
    );
    expect(m.events.map((e) => e.skill)).toEqual(["ok-skill"]);
    expect([...m.dropped]).toEqual([
      ["claude-code:tool_decision", 1],
      ["claude-code:skill_activated", 1],
    ]);
    const other = mapLogs(logs("gemini-cli", [{ attrs: { "event.name": "gemini_cli.tool_call" } }]), sender, received);
    expect(other.events).toEqual([]);
    expect([...other.dropped]).toEqual([["gemini-cli:gemini_cli.tool_call", 1]]);
  });

  it("the agent's own user is the source's user; without one, the token's owner", () => {
    const withUser = mapLogs(logs("claude-code", [{ attrs: { "event.name": "skill_activated", "skill.name": "a", "user.email": "bob@x.io" } }]), sender, received);
    expect(withUser.events[0]!.source).toMatchObject({ agent: "claude-code", user: "bob@x.io" });
    expect(withUser.events[0]!.actor).toEqual({ id: "u1", email: "alice@x.io" });
    const without = mapLogs(logs("claude-code", [{ attrs: { "event.name": "skill_activated", "skill.name": "a" } }]), sender, received);
    expect(without.events[0]!.source?.user).toBe("alice@x.io");
  });
});
