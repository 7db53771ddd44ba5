// Issue #35 item 9: `omniforge sync --from` a server that takes the connection and never answers (or stops half-way
// through an answer) stops after OMNIFORGE_SYNC_TIMEOUT_SECONDS with one line saying which wait ran out; and a
// catalog archive whose file names carry terminal escapes or direction marks is refused as an import refuses it.
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { folderDigest } from "../../runtime/sync/digest";
import { concatBytes } from "../../runtime/bytes";
import { tarBlocks } from "../../runtime/sync/tar-write";
import { serveFetch } from "../../test-support/http-server";
import type { CliIO } from "../io";
import { main } from "../main";

let home: string;
let project: string;
const sockets = new Set<net.Socket>();
let closeServer: (() => Promise<void>) | null = null;

beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), "omniforge-sync-hostile-"));
  project = path.join(home, "project");
  fs.mkdirSync(project);
});
afterEach(async () => {
  for (const s of sockets) s.destroy();
  sockets.clear();
  await closeServer?.();
  closeServer = null;
  fs.rmSync(home, { recursive: true, force: true });
});

/** A raw TCP server on 127.0.0.1 that reads the request and writes `reply` (if any), then keeps the socket open. */
async function stallingServer(reply: string | null): Promise<string> {
  const server = net.createServer((s) => {
    sockets.add(s);
    s.once("data", () => {
      if (reply !== null) s.write(reply);
    });
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  closeServer = () => new Promise<void>((ok) => server.close(() => ok()));
  return `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
}

async function sync(from: string, env: Record<string, string> = {}) {
  const io = { stdout: "", stderr: "", env: { HOME: home, ...env }, cwd: project } as unknown as CliIO & { stdout: string; stderr: string };
  io.out = (s) => void (io.stdout += s);
  io.err = (s) => void (io.stderr += s);
  const code = await main(["sync", "--from", from, "--token", "t", "--agent", "claude-code", "--scope", "project"], io);
  return { code, out: io.stdout, err: io.stderr };
}

describe("omniforge sync does not wait forever", () => {
  it("a server that accepts and never answers: one line naming the connect timeout and its setting, exit 1", async () => {
    const from = await stallingServer(null);
    const r = await sync(from, { OMNIFORGE_SYNC_TIMEOUT_SECONDS: "1" });
    expect(r.code).toBe(1);
    expect(r.err).toBe(`omniforge sync: ${from} did not answer within 1 s (connect timeout; OMNIFORGE_SYNC_TIMEOUT_SECONDS sets it)\n`);
    expect(fs.existsSync(path.join(project, ".claude"))).toBe(false);
  });

  it("a server that starts an answer and stops sending: one line naming the read timeout", async () => {
    const from = await stallingServer('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 500\r\n\r\n{"etag":"e1",');
    const r = await sync(from, { OMNIFORGE_SYNC_TIMEOUT_SECONDS: "1" });
    expect(r.code).toBe(1);
    expect(r.err).toBe(`omniforge sync: ${from} stopped sending its answer: nothing for 1 s (read timeout; OMNIFORGE_SYNC_TIMEOUT_SECONDS sets it)\n`);
  });

  it("a timeout that is not a number of seconds is refused, naming the setting", async () => {
    const r = await sync("http://127.0.0.1:9", { OMNIFORGE_SYNC_TIMEOUT_SECONDS: "soon" });
    expect(r.code).not.toBe(0);
    expect(r.err).toContain("OMNIFORGE_SYNC_TIMEOUT_SECONDS");
  });
});

describe("omniforge sync refuses file names an import refuses", () => {
  it.each([
    ["a terminal escape", "good/\u001b]0;owned\u0007evil"],
    ["a newline", "good/forged\nline.md"],
    ["a right-to-left override", "good/report\u202etxt.exe"],
  ])("%s: the archive is refused, nothing written", async (_, name) => {
    const files = [
      { path: "SKILL.md", data: new TextEncoder().encode("---\nname: good\ndescription: Good. Use it.\n---\n"), executable: false },
      { path: name.slice("good/".length), data: new TextEncoder().encode("x"), executable: false },
    ];
    const digest = folderDigest(files);
    const tar = concatBytes([...tarBlocks(files.map((f) => ({ path: `good/${f.path}`, data: f.data, mode: 0o644 })))]);
    const server = await serveFetch(async (req) =>
      new URL(req.url).searchParams.get("format") === "tar"
        ? new Response(tar as Uint8Array<ArrayBuffer>, { headers: { "content-type": "application/x-tar" } })
        : Response.json({ etag: "e1", user: "u@x.io", skills: [{ name: "good", digest }], skipped: [] }),
    );
    closeServer = server.close;
    const r = await sync(server.url);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^omniforge sync: refused the catalog archive: entry "good\/[^\n]*" has a control or direction character in its name; rename the file\n$/);
    expect(fs.existsSync(path.join(project, ".claude", "skills", "good"))).toBe(false);
  });
});
