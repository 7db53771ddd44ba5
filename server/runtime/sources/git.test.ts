// The environment and configuration git runs with for sources: the caller's git settings never reach it.
import { describe, expect, it } from "vitest";
import { gitEnv, runGit } from "./git";

describe("git for sources", () => {
  it("takes PATH, proxies and the ssh agent from the caller, and none of the variables that change what git does", () => {
    const env = gitEnv({
      PATH: "/opt/git/bin:/usr/bin",
      HTTPS_PROXY: "http://proxy.corp:3128",
      no_proxy: "localhost",
      SSH_AUTH_SOCK: "/run/agent.sock",
      GIT_DIR: "/somewhere/else",
      GIT_CONFIG_PARAMETERS: "'core.hooksPath'='/tmp/hooks'",
      GIT_CONFIG_COUNT: "1",
      GIT_SSH_COMMAND: "sh -c 'touch /tmp/pwned'",
      GIT_ASKPASS: "/tmp/askpass",
      HOME: "/home/someone",
    });
    expect(env).toMatchObject({ PATH: "/opt/git/bin:/usr/bin", HTTPS_PROXY: "http://proxy.corp:3128", no_proxy: "localhost", SSH_AUTH_SOCK: "/run/agent.sock" });
    expect(env).toMatchObject({ HOME: "/nonexistent", GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1", GIT_TERMINAL_PROMPT: "0", GIT_ALLOW_PROTOCOL: "file:https:http:git:ssh", GIT_SSH_COMMAND: "ssh -o BatchMode=yes" });
    for (const k of ["GIT_DIR", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT", "GIT_ASKPASS"]) expect(env[k]).toBeUndefined();
  });

  it("runs git with hooks off, no credential helper and only the allowed transports, whatever the caller's environment says", async () => {
    const read = (key: string) =>
      runGit(["config", "--get", key], { timeoutMs: 30_000, callerEnv: { PATH: process.env.PATH, GIT_CONFIG_PARAMETERS: "'core.hookspath'='/tmp/hooks'" } }).then((s) => s.trim());
    expect(await read("core.hooksPath")).toBe("/dev/null");
    expect(await read("credential.helper")).toBe("");
    expect(await read("protocol.allow")).toBe("never");
    expect(await read("protocol.https.allow")).toBe("always");
  });
});
