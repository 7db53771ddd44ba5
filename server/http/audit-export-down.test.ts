// An audit download whose database goes away before its end (issue #38): the file must not look whole. The export's
// stream says so in a last line and then fails, and the server that carries it (Next for the export route, the
// console's own edge for tRPC's streams) aborts the response instead of ending it. The database is a real PostgreSQL
// reached through a TCP proxy that the test cuts; what the client reads comes over real HTTP on 127.0.0.1.
import http from "node:http";
import { pipeToNodeResponse } from "next/dist/server/pipe-readable";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { postgresDb, type Db } from "../../db/client";
import { postgresPool } from "../../db/dialect";
import { exportStream, INCOMPLETE_MARK } from "../services/audit/export";
import { AuditWriter } from "../services/audit/writer";
import { listenLocal } from "../test-support/listen";
import { describeOnPostgres } from "../test-support/needs";
import { serveFetch } from "../test-support/http-server";
import { tcpProxy, type TcpProxy } from "../test-support/tcp-proxy";
import { tempDb, type TempDb } from "../test-support/temp-db";

const ONE_LINE = "The database does not answer; the console reconnects by itself when it is back. Try again shortly.";
const all = { kind: "all" } as const;

describeOnPostgres("an audit export whose database goes away midway", "only a database server can go away under a running console", () => {
  let t: TempDb;
  let proxy: TcpProxy;
  let db: Db;
  const logged: string[] = [];

  beforeEach(async () => {
    t = tempDb();
    const w = new AuditWriter(t.db, { stdout: false });
    for (let i = 0; i < 25; i++) w.record({ type: "tool_call", actor: { id: "alice" }, tool: "read_file", details: { i } });
    await w.close();
    proxy = await tcpProxy(Number(new URL(t.url!).port));
    db = postgresDb(proxy.through(t.url!), t.dir);
    logged.length = 0;
    vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(" ")));
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await postgresPool(db)!.end();
    await proxy.close();
    await t.cleanup();
  });

  it("ends with a line saying it is incomplete, then fails; the log has one line and no query", async () => {
    const reader = exportStream(db, {}, all, "jsonl", 10).getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first.trim().split("\n")).toHaveLength(10);
    proxy.cut();
    const last = new TextDecoder().decode((await reader.read()).value);
    expect(last).toBe(`\n${INCOMPLETE_MARK} ${ONE_LINE}\n`);
    await expect(reader.read()).rejects.toThrow(`The export is incomplete: ${ONE_LINE}`);
    expect(logged).toEqual([`[omniforge] audit export stopped before its end: ${ONE_LINE}`]);
  });

  /** What a client downloading `url` gets: the text received, and how the transfer ended. */
  async function download(url: string): Promise<{ text: string; ended: "whole" | "failed" }> {
    const res = await fetch(url);
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    let text = "";
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return { text, ended: "whole" };
        text += new TextDecoder().decode(value);
      }
    } catch {
      return { text, ended: "failed" };
    }
  }

  it("over HTTP the download fails, whether Next or the console's own server carries it", async () => {
    proxy.cut();
    const body = () => exportStream(db, {}, all, "csv", 10);
    // Next's route handlers' bodies go out through this function (next/dist/server/send-response.js).
    const next = await listenLocal(http.createServer((_req, res) => void pipeToNodeResponse(body(), res).catch(() => undefined)));
    const edge = await serveFetch(async () => new Response(body(), { headers: { "content-type": "text/csv" } }));
    try {
      for (const url of [next.url, edge.url]) {
        const got = await download(url);
        expect(got.ended).toBe("failed");
        expect(got.text.startsWith("id,at,type,")).toBe(true);
      }
    } finally {
      await next.close();
      await edge.close();
    }
  });
});
