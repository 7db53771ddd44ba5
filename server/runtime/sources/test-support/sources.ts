// For the sources' tests: real bare repositories made with the system git (a work tree pushing to a bare origin),
// and git's own http-backend served over HTTP on 127.0.0.1 (port 0).
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

/** git as a person runs it, but with nobody's configuration and a fixed author. */
const testGitEnv = (extra: Record<string, string> = {}): NodeJS.ProcessEnv =>
  ({
  PATH: process.env.PATH,
  HOME: "/nonexistent",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_AUTHOR_NAME: "Test",
  GIT_AUTHOR_EMAIL: "test@example.com",
  GIT_COMMITTER_NAME: "Test",
  GIT_COMMITTER_EMAIL: "test@example.com",
  GIT_ALLOW_PROTOCOL: "file",
  ...extra,
  }) as unknown as NodeJS.ProcessEnv;

export function git(cwd: string, args: string[], extra: Record<string, string> = {}): string {
  return execFileSync("git", ["-c", "init.defaultBranch=main", "-c", "gc.auto=0", "-c", "maintenance.auto=false", ...args], { cwd, env: testGitEnv(extra), encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
}

export const skillMd = (name: string, description: string) => `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n\nSteps.\n`;

/** A bare repository `<dir>/<name>.git` and a work tree `<dir>/<name>-work` that pushes to it (branch main). */
export class TestRepo {
  readonly bare: string;
  readonly work: string;

  constructor(dir: string, name = "skills") {
    this.bare = path.join(dir, `${name}.git`);
    this.work = path.join(dir, `${name}-work`);
    fs.mkdirSync(this.work, { recursive: true });
    git(dir, ["init", "-q", "--bare", this.bare]);
    git(this.work, ["init", "-q"]);
    git(this.work, ["remote", "add", "origin", this.bare]);
  }

  /** Writes files (relative path -> text), or symbolic links for values { link: target }. */
  write(files: Record<string, string | { link: string }>): this {
    for (const [rel, content] of Object.entries(files)) {
      const p = path.join(this.work, rel);
      fs.mkdirSync(path.dirname(p), { recursive: true });
      if (fs.lstatSync(p, { throwIfNoEntry: false })) fs.rmSync(p, { force: true });
      if (typeof content === "string") fs.writeFileSync(p, content);
      else fs.symlinkSync(content.link, p);
    }
    return this;
  }

  /**
   * Commits and pushes a folder of `n` files (one shared content) at `prefix`, made with git's plumbing: nothing is
   * written to the work tree (10,000 files on disk took seconds). Returns the commit id.
   */
  commitBulkFolder(prefix: string, n: number): string {
    const blob = execFileSync("git", ["hash-object", "-w", "--stdin"], { cwd: this.work, env: testGitEnv(), input: "x\n", encoding: "utf8" }).trim();
    const lines = Array.from({ length: n }, (_, i) => `100644 blob ${blob}\tf${i}.txt\n`).join("");
    const tree = execFileSync("git", ["mktree"], { cwd: this.work, env: testGitEnv(), input: lines, encoding: "utf8" }).trim();
    git(this.work, ["read-tree", `--prefix=${prefix}/`, tree]);
    git(this.work, ["commit", "-q", "-m", `${n} files`]);
    git(this.work, ["push", "-q", "origin", "HEAD:main"]);
    return this.head();
  }

  /** Commits everything and pushes main; returns the commit id. */
  commit(message: string, opts: { force?: boolean } = {}): string {
    git(this.work, ["add", "-A"]);
    git(this.work, ["commit", "-q", "--allow-empty", "-m", message]);
    git(this.work, ["push", "-q", ...(opts.force ? ["--force"] : []), "origin", "HEAD:main"]);
    return this.head();
  }

  head(): string {
    return git(this.work, ["rev-parse", "HEAD"]);
  }
}

/**
 * git http-backend (smart HTTP, CGI) behind a Node server on 127.0.0.1, serving the bare repositories in `root`.
 * With `password`, a request without Basic credentials of that password gets 401, so a test knows git sent it.
 */
export async function gitHttpServer(root: string, opts: { password?: string } = {}): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    if (opts.password) {
      const auth = req.headers.authorization ?? "";
      const given = auth.startsWith("Basic ") ? Buffer.from(auth.slice(6), "base64").toString().split(":").slice(1).join(":") : "";
      if (given !== opts.password) {
        res.writeHead(401, { "WWW-Authenticate": 'Basic realm="git"' }).end();
        return;
      }
    }
    const u = new URL(req.url ?? "/", "http://127.0.0.1");
    const cgi = spawn("git", ["http-backend"], {
      env: {
        ...testGitEnv(),
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: "1",
        PATH_INFO: decodeURIComponent(u.pathname),
        QUERY_STRING: u.search.slice(1),
        REQUEST_METHOD: req.method ?? "GET",
        CONTENT_TYPE: req.headers["content-type"] ?? "",
        REMOTE_ADDR: "127.0.0.1",
        ...(req.headers["git-protocol"] ? { GIT_PROTOCOL: String(req.headers["git-protocol"]) } : {}),
        ...(req.headers["content-encoding"] ? { HTTP_CONTENT_ENCODING: String(req.headers["content-encoding"]) } : {}),
      },
      stdio: ["pipe", "pipe", "ignore"],
    });
    req.pipe(cgi.stdin);
    let head = Buffer.alloc(0);
    let headerDone = false;
    cgi.stdout.on("data", (chunk: Buffer) => {
      if (headerDone) return void res.write(chunk);
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf("\r\n\r\n");
      if (end === -1) return;
      headerDone = true;
      let status = 200;
      const headers: Record<string, string> = {};
      for (const line of head.subarray(0, end).toString().split("\r\n")) {
        const i = line.indexOf(":");
        const k = line.slice(0, i).trim();
        const v = line.slice(i + 1).trim();
        if (k.toLowerCase() === "status") status = Number.parseInt(v, 10);
        else headers[k] = v;
      }
      res.writeHead(status, headers);
      res.write(head.subarray(end + 4));
    });
    cgi.on("close", () => res.end());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
