// The audit page's URL filter (components/audit/url-filter.ts) against the schema the server validates: the same
// fields in the same order, and the same words for an inverted range. Here, not beside the page, since the page's own
// code must not reach into the services.
import { describe, expect, it } from "vitest";

describe("URL filter keys", () => {
  it("are the audit service's filter fields plus the range, in the schema's order", async () => {
    const { auditFilterSchema } = await import("./filter");
    const { FILTER_KEYS } = await import("../../../components/audit/url-filter");
    expect([...FILTER_KEYS]).toEqual(["range", ...Object.keys(auditFilterSchema.shape)]);
  });

  it("and the fields and the server refuse an inverted range with the same words", async () => {
    const { auditFilterSchema } = await import("./filter");
    const { auditRangeProblem } = await import("~/server/domain/audit-filter-keys");
    const r = auditFilterSchema.safeParse({ from: "2026-06-02T00:00:00Z", to: "2026-06-01T00:00:00Z" });
    expect(r.error?.issues.map((i) => i.message)).toEqual([auditRangeProblem(Date.UTC(2026, 5, 2), Date.UTC(2026, 5, 1))]);
    expect(auditRangeProblem(Date.UTC(2026, 5, 1), Date.UTC(2026, 5, 2))).toBeNull();
    expect(auditRangeProblem(undefined, Date.UTC(2026, 5, 2))).toBeNull();
  });
});
