import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Db } from "./client";
import { users } from "./schema";
import { inTransaction } from "./transaction";
import { tempDb } from "../server/test-support/temp-db";
import { itOnSqlite } from "../server/test-support/needs";
import { useTestHome } from "../server/test-support/test-home";

const user = (id: string) => ({ id, email: `${id}@example.test`, name: id, passwordHash: "x" });

describe("inTransaction (on SQLite, or PostgreSQL under npm run test:pg)", () => {
  const home = useTestHome(tempDb);
  const db = (): Db => home.db;

  it("commits every write of the callback together", async () => {
    await inTransaction(db(), async (tx) => {
      await tx.insert(users).values(user("a"));
      await tx.insert(users).values(user("b"));
    });
    expect((await db().select().from(users)).map((u) => u.id).sort()).toEqual(["a", "b"]);
  });

  it("keeps none of them when the callback throws, and rethrows", async () => {
    await expect(
      inTransaction(db(), async (tx) => {
        await tx.insert(users).values(user("c"));
        throw new Error("stop");
      }),
    ).rejects.toThrow("stop");
    expect(await db().select().from(users).where(eq(users.id, "c"))).toEqual([]);
  });

  // PostgreSQL runs each on a connection of its own, side by side; SQLite's one connection must queue them.
  itOnSqlite("on SQLite, runs two transactions one after the other, and a nested one joins its parent", "PostgreSQL runs them side by side, each on a connection of its own", async () => {
    const order: string[] = [];
    const slow = inTransaction(db(), async (tx) => {
      order.push("first begins");
      await new Promise((r) => setTimeout(r, 20));
      await inTransaction(tx, async (inner) => void (await inner.insert(users).values(user("d"))));
      order.push("first ends");
    });
    const second = inTransaction(db(), async () => void order.push("second"));
    await Promise.all([slow, second]);
    expect(order).toEqual(["first begins", "first ends", "second"]);
    expect(await db().select().from(users).where(eq(users.id, "d"))).toHaveLength(1);
  });

  it("a transaction begun inside another joins it: the parent's failure undoes the nested write too", async () => {
    await expect(
      inTransaction(db(), async (tx) => {
        await inTransaction(tx, async (inner) => void (await inner.insert(users).values(user("e"))));
        throw new Error("parent fails");
      }),
    ).rejects.toThrow("parent fails");
    expect(await db().select().from(users).where(eq(users.id, "e"))).toEqual([]);
  });

  // A timer set inside a transaction keeps its context after the transaction ended: it used to "join" the finished
  // one and write outside any transaction (and, on PostgreSQL, on a connection given back to the pool).
  it("a transaction begun by a timer set inside an earlier one is a transaction of its own", async () => {
    let later!: Promise<void>;
    await inTransaction(db(), async (tx) => {
      await tx.insert(users).values(user("f"));
      later = new Promise<void>((resolve, reject) =>
        setTimeout(() => {
          inTransaction(db(), async (inner) => {
            await inner.insert(users).values(user("g"));
            throw new Error("timer's work fails");
          }).then(resolve, (e: Error) => (e.message === "timer's work fails" ? resolve() : reject(e)));
        }, 0),
      );
    });
    await later;
    expect((await db().select().from(users)).map((u) => u.id)).toEqual(["f"]);
  });

  it("a transaction on another database inside one does not join it", async () => {
    const other = tempDb();
    try {
      await expect(
        inTransaction(db(), async () => {
          await inTransaction(other.db, async (tx) => void (await tx.insert(users).values(user("h"))));
          throw new Error("outer fails");
        }),
      ).rejects.toThrow("outer fails");
      expect(await other.db.select().from(users).where(eq(users.id, "h"))).toHaveLength(1);
    } finally {
      await other.cleanup();
    }
  });
});
