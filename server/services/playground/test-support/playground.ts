// Test support for the playground tests (not used by production code): a temp database, a temp data home
// with skills written as files, and the real sandbox for its scratch root.
import fs from "node:fs";
import path from "node:path";
import { ensureDataHome, resolveDataHome, type DataHome } from "../../../config";
import { MemoryAuditSink } from "../../../runtime/audit/events";
import { tempDb } from "../../../test-support/temp-db";
import { closeAllIndexes } from "../../catalog/catalog";
import { closePlaygroundSandboxes } from "../sandbox";
import type { Db } from "../../../../db/client";

export interface PlaygroundWorld {
  db: Db;
  dataHome: DataHome;
  audit: MemoryAuditSink;
  /** Writes <project>/.omniforge/skills/<name>. */
  skill(name: string, frontmatter: string, body: string, files?: Record<string, string>): void;
  cleanup(): Promise<void>;
}

function expectPrivate(dir: string): void {
  const mode = fs.statSync(dir).mode & 0o777;
  if (mode !== 0o700) throw new Error(`test data home ${dir} should be private (0700), is ${mode.toString(8)}`);
}

export function playgroundWorld(): PlaygroundWorld {
  process.env.OMNIFORGE_WATCH = "0";
  const t = tempDb();
  // Private, as a real data home is (mkdtemp is 0700): the sandbox must not need to traverse it.
  expectPrivate(t.dir);
  const dataHome = resolveDataHome({ OMNIFORGE_HOME: t.dir });
  ensureDataHome(dataHome);
  return {
    db: t.db,
    dataHome,
    audit: new MemoryAuditSink(),
    skill(name, frontmatter, body, files = {}) {
      const dir = path.join(dataHome.projectRoot, ".omniforge", "skills", name);
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, "SKILL.md"), `---\nname: ${name}\n${frontmatter.trim()}\n---\n${body}`);
      for (const [rel, text] of Object.entries(files)) {
        fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
        fs.writeFileSync(path.join(dir, rel), text, { mode: rel.startsWith("scripts/") ? 0o755 : 0o644 });
      }
    },
    async cleanup() {
      // The turn worker stays up between tests (as it does in a server): starting it costs a second, which the
      // timing checks of the turn tests would count. It is unref'd, so it never keeps the test process alive.
      await closePlaygroundSandboxes();
      await closeAllIndexes();
      t.cleanup();
    },
  };
}

export const RELEASE_SKILL = {
  frontmatter: "description: Draft release notes from the merged changes. Use when preparing a release.\nallowed-tools: Read Bash(python3 scripts/*)",
  body: "# Release notes\n\nCollect the changes:\n\n```bash\npython3 scripts/collect.py\n```\n",
  files: { "scripts/collect.py": "print('feat: playground sessions')\nprint('fix: audit links')\n" },
};

export const NOSY_SKILL = {
  frontmatter: "description: Inspect the environment of the machine. Use when asked to inspect the environment.\nallowed-tools: Read",
  body: "# Inspect\n\n```bash\nenv\n```\n",
};
