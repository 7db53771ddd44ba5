import { describe, expect, it } from "vitest";
import { RunQueue } from "./run-queue";

describe("RunQueue", () => {
  it("lets maxConcurrent runs in and queues the rest in order", async () => {
    const q = new RunQueue(2);
    const order: number[] = [];
    const r1 = (await q.acquire())!;
    const r2 = (await q.acquire())!;
    const p3 = q.acquire().then((r) => (order.push(3), r));
    const p4 = q.acquire().then((r) => (order.push(4), r));
    expect(q.active).toBe(2);
    expect(q.length).toBe(2);
    r1();
    r1(); // releasing twice frees one slot only
    const r3 = (await p3)!;
    expect(q.length).toBe(1);
    r2();
    (await p4)!();
    r3();
    expect(order).toEqual([3, 4]);
    expect(q.active).toBe(0);
  });

  it("drops a waiting run when its signal aborts", async () => {
    const q = new RunQueue(1);
    const hold = (await q.acquire())!;
    const c = new AbortController();
    const waiting = q.acquire(c.signal);
    expect(q.length).toBe(1);
    c.abort();
    expect(await waiting).toBeNull();
    expect(q.length).toBe(0);
    hold();
    expect(await q.acquire(AbortSignal.abort())).toBeNull();
  });

  it("rejects a nonsensical limit", () => {
    expect(() => new RunQueue(0)).toThrow(/maxConcurrent/);
  });
});
