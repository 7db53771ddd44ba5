// A console server's id: readable (host and pid) and unique, also between two containers that share a host name
// and are each the same pid. The containers here are two processes, each in a pid namespace of its own (real
// bubblewrap), on this machine's host name.
import { execFileSync } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it, vi } from "vitest";
import { repoRoot } from "../config";
import { BWRAP, bubblewrap, describeNeeding } from "../test-support/needs";
import { SERVER_ID, serverIdParts } from "./server-id";

describe("this server's id", () => {
  it("is the host, the pid and a tag of 8 hex digits", () => {
    expect(SERVER_ID).toMatch(new RegExp(`^${os.hostname().replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:${process.pid}:[0-9a-f]{8}$`));
    expect(serverIdParts(SERVER_ID)).toEqual({ host: os.hostname(), pid: process.pid });
  });

  it("is one per process: another copy of its module (another of Next's bundles) names the same server", async () => {
    vi.resetModules();
    const copy = (await import("./server-id")).SERVER_ID;
    expect(copy).toBe(SERVER_ID);
  });

  it("reads the ids of servers from before the tag, and nothing that is not an id", () => {
    expect(serverIdParts("web-1:4242")).toEqual({ host: "web-1", pid: 4242 });
    expect(serverIdParts("web-1:1:0a1b2c3d")).toEqual({ host: "web-1", pid: 1 });
    for (const junk of ["", "web-1", "web-1:", ":42", "web-1:0", "web-1:4.5", "web-1:42:XYZ", "web-1:42:0a1b2c3d:9", "a:b:c"]) expect(serverIdParts(junk)).toBeNull();
  });
});

describeNeeding(bubblewrap(), "two servers with one host name and one pid", () => {
  it("have two ids", () => {
    const module = pathToFileURL(path.join(repoRoot(), "server", "services", "server-id.ts")).href;
    const start = () => {
      const out = execFileSync(BWRAP, ["--unshare-pid", "--dev-bind", "/", "/", process.execPath, "--import", "tsx", "-e", `import(${JSON.stringify(module)}).then((m) => console.log(JSON.stringify({ pid: process.pid, id: m.SERVER_ID })))`], { cwd: repoRoot(), encoding: "utf8" });
      return JSON.parse(out) as { pid: number; id: string };
    };
    const a = start();
    const b = start();
    // The same pid in each namespace, as two containers' servers are each pid 1.
    expect(a.pid).toBe(b.pid);
    expect(serverIdParts(a.id)).toEqual({ host: os.hostname(), pid: a.pid });
    expect(serverIdParts(b.id)).toEqual({ host: os.hostname(), pid: b.pid });
    expect(a.id).not.toBe(b.id);
  });
});
