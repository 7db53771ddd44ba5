// docs/deploy.md's team setup gives an nginx configuration for the proxy in front of the console servers; the
// two-server bench stands a small Node proxy in its place, so until this test the file itself was run by nothing.
// Here it is run as written, by a real nginx, in front of two HTTP servers standing for the consoles: only its
// addresses are changed (the upstreams' and, without TLS, the listening one). It must do what the page says: spread
// requests over both, append the client's address to X-Forwarded-For and pass the Host, let a skill archive through,
// stream server-sent events as they come, and send everyone to the other server when one is gone.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeNeeding, nginx, NGINX } from "../server/test-support/needs";
import { ensureSystemPackages } from "./system-deps";

const repo = path.resolve(import.meta.dirname, "..");

/** The nginx block of the team setup's step 4, as the page shows it. */
function documentedConfig(): string {
  const doc = fs.readFileSync(path.join(repo, "docs", "deploy.md"), "utf8");
  const block = /\*\*4\. The reverse proxy\.\*\*[^\n]*\n+```\n(upstream omniforge \{[\s\S]*?)```/.exec(doc);
  expect(block, "deploy.md's step 4 holds the nginx configuration").not.toBeNull();
  return block![1]!;
}

async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

interface Seen {
  server: number;
  host?: string;
  forwardedFor?: string;
  proto?: string;
  bodyBytes: number;
}

/** A console server stand-in: answers what it was sent; /events sends one event and holds until `release`. */
function upstream(index: number, release: Promise<void>): http.Server {
  return http.createServer((req, res) => {
    let bodyBytes = 0;
    req.on("data", (c: Buffer) => (bodyBytes += c.length));
    req.on("end", () => {
      if (req.url === "/events") {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.write("data: first\n\n");
        void release.then(() => res.end("data: last\n\n"));
        return;
      }
      const seen: Seen = { server: index, host: req.headers.host, forwardedFor: req.headers["x-forwarded-for"] as string, proto: req.headers["x-forwarded-proto"] as string, bodyBytes };
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(seen));
    });
  });
}

function request(port: number, opts: { method?: string; path?: string; headers?: Record<string, string>; body?: Buffer } = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, method: opts.method ?? "GET", path: opts.path ?? "/api/health", headers: { host: "skills.example.com", ...opts.headers } }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end(opts.body);
  });
}

describeNeeding(nginx(), "docs/deploy.md's nginx configuration, run by nginx", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "omniforge-nginx-"));
  let releaseEvents!: () => void;
  const release = new Promise<void>((r) => (releaseEvents = r));
  const servers = [upstream(0, release), upstream(1, release)];
  let proxy: ChildProcess;
  let port = 0;
  const stderr: string[] = [];

  beforeAll(async () => {
    ensureSystemPackages(["nginx-light"], { required: true });
    const ports = await Promise.all(
      servers.map(async (s) => {
        await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
        return (s.address() as net.AddressInfo).port;
      }),
    );
    port = await freePort();
    const documented = documentedConfig();
    const config = documented
      .replace("server 10.0.0.11:3000", `server 127.0.0.1:${ports[0]}`)
      .replace("server 10.0.0.12:3000", `server 127.0.0.1:${ports[1]}`)
      .replace("listen 443 ssl;", `listen 127.0.0.1:${port};`);
    expect(config.match(/127\.0\.0\.1:\d+/g)).toHaveLength(3);
    // nginx's workers run as nobody when it is started by root: their temporary files go where they may write.
    const temp = path.join(dir, "temp");
    fs.mkdirSync(temp, { mode: 0o777 });
    fs.chmodSync(temp, 0o777);
    fs.chmodSync(dir, 0o755);
    const file = path.join(dir, "nginx.conf");
    fs.writeFileSync(
      file,
      `pid ${dir}/nginx.pid;\nerror_log ${dir}/error.log;\nworker_processes 1;\nevents { worker_connections 64; }\n` +
        `http {\naccess_log off;\nclient_body_temp_path ${temp}/body;\nproxy_temp_path ${temp}/proxy;\n${config}}\n`,
    );
    proxy = spawn(NGINX, ["-c", file, "-g", "daemon off;"], { stdio: ["ignore", "ignore", "pipe"] });
    proxy.stderr!.on("data", (d: Buffer) => stderr.push(d.toString()));
    // Listening once a connection is taken; an nginx that refused its configuration has exited by then.
    for (;;) {
      if (proxy.exitCode !== null) throw new Error(`nginx refused the configuration: ${stderr.join("")}`);
      const up = await new Promise<boolean>((r) => net.connect(port, "127.0.0.1").once("connect", function (this: net.Socket) { this.destroy(); r(true); }).once("error", () => r(false)));
      if (up) break;
      await new Promise((r) => setTimeout(r, 100));
    }
  }, 180_000);

  afterAll(async () => {
    releaseEvents();
    proxy?.kill("SIGTERM");
    if (proxy && proxy.exitCode === null) await new Promise((r) => proxy.once("exit", r));
    for (const s of servers) s.closeAllConnections();
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("sends requests to both servers in turn, with the client's address appended and the public host", async () => {
    const seen: Seen[] = [];
    for (let i = 0; i < 4; i++) seen.push(JSON.parse((await request(port, { headers: { "x-forwarded-for": "203.0.113.9" } })).body) as Seen);
    expect(seen.map((s) => s.server).sort()).toEqual([0, 0, 1, 1]);
    // The console believes the proxy (OMNIFORGE_TRUSTED_PROXIES) and takes the right-most address it does not trust.
    expect(new Set(seen.map((s) => s.forwardedFor))).toEqual(new Set(["203.0.113.9, 127.0.0.1"]));
    expect(new Set(seen.map((s) => `${s.host} ${s.proto}`))).toEqual(new Set(["skills.example.com http"]));
  });

  it("lets a 10 MB skill archive through (nginx's own default refuses past 1 MB)", async () => {
    const r = await request(port, { method: "POST", path: "/api/trpc/skill.import", headers: { "content-type": "application/json" }, body: Buffer.alloc(10 * 1024 * 1024, 0x61) });
    expect(r.status).toBe(200);
    expect((JSON.parse(r.body) as Seen).bodyBytes).toBe(10 * 1024 * 1024);
  });

  it("streams a playground turn's events as they come, not when the answer ends", async () => {
    const first = await new Promise<string>((resolve, reject) => {
      http
        .get({ host: "127.0.0.1", port, path: "/events", headers: { host: "skills.example.com", accept: "text/event-stream" } }, (res) => {
          res.setEncoding("utf8");
          // The upstream ends the answer only after this first event has arrived (the release below): a proxy that
          // held it until the end would time the test out. (nginx 1.22 passed it here with proxy_buffering on too.)
          res.once("data", (c: string) => resolve(c));
          res.resume();
        })
        .on("error", reject);
    });
    expect(first).toBe("data: first\n\n");
    releaseEvents();
  });

  it("sends everyone to the other server when one is gone, without a failed request", async () => {
    servers[1]!.closeAllConnections();
    await new Promise((r) => servers[1]!.close(r));
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await request(port));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(answers.map((a) => (JSON.parse(a.body) as Seen).server)).toEqual([0, 0, 0, 0]);
  });
});
