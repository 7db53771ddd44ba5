import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isInside, isSafeSegment, relativeInside, LAYER_ORDER, layerConfigFromEnv, makeLayerConfig, writableRoot } from "./layers";

const env = (vars: Record<string, string>) => vars as unknown as NodeJS.ProcessEnv;

describe("layer configuration", () => {
  it("the order is enterprise > personal > project > plugin", () => {
    expect(LAYER_ORDER).toEqual(["enterprise", "personal", "project", "plugin"]);
  });

  it("CLI defaults: flags, then OMNIFORGE_HOME / OMNIFORGE_PROJECT_ROOT, then ~/.omniforge and the cwd", () => {
    const cwd = "/srv/somewhere";
    expect(layerConfigFromEnv({}, env({ HOME: "/home/ana" }), cwd)).toEqual({
      home: path.join(os.homedir(), ".omniforge"),
      projectRoot: cwd,
      userId: undefined,
      // The CLI user's own agent folders join the personal layer.
      agentUserDirs: ["/home/ana/.claude/skills", "/home/ana/.agents/skills", "/home/ana/.codex/skills", "/home/ana/.gemini/skills"],
    });
    expect(layerConfigFromEnv({}, env({ HOME: "/home/ana", CODEX_HOME: "/opt/codex" }), cwd).agentUserDirs).toContain("/opt/codex/skills");
    expect(layerConfigFromEnv({}, env({ OMNIFORGE_HOME: "h", OMNIFORGE_PROJECT_ROOT: "/p" }), cwd)).toMatchObject({ home: "/srv/somewhere/h", projectRoot: "/p" });
    expect(layerConfigFromEnv({ home: "/x", project: "y", user: "bob" }, env({ OMNIFORGE_HOME: "h" }), cwd)).toEqual({
      home: "/x",
      projectRoot: "/srv/somewhere/y",
      userId: "bob",
    });
    // An empty variable is unset, not the current folder (the data home would land in the project); an empty flag
    // is a mistake to name.
    expect(layerConfigFromEnv({}, env({ OMNIFORGE_HOME: "", OMNIFORGE_PROJECT_ROOT: "" }), cwd)).toMatchObject({ home: path.join(os.homedir(), ".omniforge"), projectRoot: cwd });
    expect(() => layerConfigFromEnv({ home: "" }, env({}), cwd)).toThrow("--home needs a folder, not an empty value");
    expect(() => layerConfigFromEnv({ project: " " }, env({}), cwd)).toThrow("--project needs a folder, not an empty value");
  });

  it("refuses user ids and plugin names that would escape their folder", () => {
    for (const bad of ["..", "../x", "a/b", "", ".hidden", "a\\b"]) expect(isSafeSegment(bad), bad).toBe(false);
    expect(() => makeLayerConfig({ home: "/h", projectRoot: "/p", userId: "../root" })).toThrow(/invalid user id/);
    const config = makeLayerConfig({ home: "/h", projectRoot: "/p" });
    expect(() => writableRoot(config, "plugin", "../x")).toThrow(/plugin name/);
    expect(writableRoot(config, "plugin", "acme")).toBe("/h/plugins/acme/skills");
    expect(writableRoot(config, "project")).toBe("/p/.omniforge/skills");
  });

  it("isInside is a path check, not a prefix check", () => {
    expect(isInside("/a/b", "/a/b/c")).toBe(true);
    expect(isInside("/a/b", "/a/b")).toBe(true);
    expect(isInside("/a/b", "/a/bc")).toBe(false);
    expect(isInside("/a/b", "/a")).toBe(false);
    expect(isInside("/a/b", "/a/b/..x")).toBe(true);
    expect(isInside("/a/b", "/a/b/x/../..")).toBe(false);
  });

  it("relativeInside gives the rest of a path inside, null outside (a name beginning with two dots is inside)", () => {
    expect(relativeInside("/a/b", "/a/b/..build/SKILL.md")).toBe("..build/SKILL.md");
    expect(relativeInside("/a/b", "/a/b")).toBe("");
    expect(relativeInside("/a/b", "/a/bc/x")).toBeNull();
    expect(relativeInside("/a/b", "/a/b/../c")).toBeNull();
  });

  it("isInside answers as the resolved paths' segments do, for plain paths (compared as strings) and any others", () => {
    const byRelative = (parent: string, child: string) => {
      const [p, c] = [path.resolve(parent), path.resolve(child)].map((x) => x.split(path.sep).filter(Boolean));
      return p!.length <= c!.length && p!.every((seg, i) => seg === c![i]);
    };
    const samples = ["/", "/a", "/a/b", "/a/bc", "/a/b/c", "/a/b/", "/a//b/c", "/a/./b/c", "/a/x/../b/c", "/a/b/..", "/a/b/.hidden", "/a/b/..x", "/a/b/c.d", "/ab", "/b/a"];
    for (const parent of samples) for (const child of samples) expect([parent, child, isInside(parent, child)]).toEqual([parent, child, byRelative(parent, child)]);
  });
});
