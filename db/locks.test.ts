// Jobs one server runs: two connections to one database (two servers) ask for the same job's lock; only one runs
// it, and the other may once the first is done. On SQLite and, under npm run test:pg, on PostgreSQL.
import { describe, expect, it } from "vitest";
import { runAlone } from "./locks";
import { secondConnection, tempDb } from "../server/test-support/temp-db";
import { useTestHome } from "../server/test-support/test-home";

describe("runAlone: a job one server runs at a time", () => {
  const t = useTestHome(tempDb);

  it("refuses the job on a second connection while the first runs it, and grants it after", async () => {
    const other = secondConnection(t);
    try {
      let finish!: () => void;
      const holding = new Promise<void>((r) => (finish = r));
      let started!: () => void;
      const running = new Promise<void>((r) => (started = r));
      const first = runAlone(t.db, "audit-retention", async () => {
        started();
        await holding;
        return "first";
      });
      await running;
      expect(await runAlone(other.db, "audit-retention", async () => "second")).toEqual({ ran: false });
      // The same process asking again (a second timer of the same job) is refused too.
      expect(await runAlone(t.db, "audit-retention", async () => "again")).toEqual({ ran: false });
      finish();
      expect(await first).toEqual({ ran: true, value: "first" });
      expect(await runAlone(other.db, "audit-retention", async () => "second")).toEqual({ ran: true, value: "second" });
    } finally {
      await other.close();
    }
  });

  it("lets the job run again after it failed (the lock is not left behind)", async () => {
    await expect(runAlone(t.db, "audit-retention", async () => Promise.reject(new Error("disk full")))).rejects.toThrow("disk full");
    expect(await runAlone(t.db, "audit-retention", async () => 1)).toEqual({ ran: true, value: 1 });
  });
});
