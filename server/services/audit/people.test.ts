// The people behind a page's actor ids (playground and agent events carry only an id): every one found, in as few
// statements as the page's people need (one per 32), counted on PostgreSQL's pool. Runs on both databases.
import { describe, expect, it } from "vitest";
import { postgresPool } from "../../../db/dialect";
import { users } from "../../../db/schema/users";
import { testDatabaseIsPostgres } from "../../../db/test-support/postgres-run";
import { tempDb } from "../../test-support/temp-db";
import { useTestHome } from "../../test-support/test-home";
import { withPeople } from "./queries";

describe("the people of an audit page", () => {
  const t = useTestHome(tempDb);

  it("names each of 40 people of a page, leaves an unknown id and a recorded email as they are, in two statements", async () => {
    const people = Array.from({ length: 40 }, (_, i) => `p${String(i).padStart(2, "0")}`);
    const at = new Date(0);
    await t.db.insert(users).values(people.map((id) => ({ id, email: `${id}@x.io`, name: "", role: "author" as const, passwordHash: "x", disabled: false, createdAt: at, updatedAt: at })));
    const page = [...people, "gone", "p01"].map((actorId) => ({ actorId, actorEmail: null as string | null }));
    page.push({ actorId: "p02", actorEmail: "kept@x.io" });

    const sent: unknown[] = [];
    const pool = testDatabaseIsPostgres() ? postgresPool(t.db)! : null;
    if (pool) {
      const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
      (pool as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => (sent.push(args[0]), query(...args));
    }
    const named = await withPeople(t.db, page);
    expect(named.slice(0, 40).map((e) => e.actorEmail)).toEqual(people.map((id) => `${id}@x.io`));
    expect(named.slice(40)).toEqual([
      { actorId: "gone", actorEmail: null },
      { actorId: "p01", actorEmail: "p01@x.io" },
      { actorId: "p02", actorEmail: "kept@x.io" },
    ]);
    if (pool) expect(sent).toHaveLength(2);
  });
});
