// `omniforge publish marketplace --out DIR`: what the catalog serves for a context, written as a Claude Code
// marketplace (server/runtime/sources/publish.ts), and committed when DIR is a git work tree. Personal skills are
// a person's own and are never published.
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { CONTEXT_FLAGS, environmentOf, parseCommand, stringFlags } from "../args";
import { ConsoleDbError, openConsoleIfAny, type ConsoleDatabase } from "../console-db";
import type { CliIO } from "../io";
import { contextFor } from "../policy-source";
import { printable } from "../printable";
import { configFrom } from "./skill-list";
import { SkillIndex } from "../../runtime/registry/skill-index";
import { publishMarketplace } from "../../runtime/sources/publish";
import { selectPublished, skillDigests, writePublishRecord } from "../../runtime/sources/publish-record";
import { auditSinkFor, flushAudit } from "../../services/audit";
import { SourceError } from "../../runtime/sources/checkout";
import { count } from "../../domain/plural";

export const summary = "Write the skills the catalog serves as a Claude Code marketplace, with its managed-settings.json";

const USAGE = `usage: omniforge publish marketplace --out DIR [--name NAME] [--owner NAME] [--url GIT_URL]
                                    [--environment NAME] [--agent NAME] [--tenant NAME] [--home DIR] [--project DIR]
  --out    the marketplace folder (made when missing; committed when it is a git work tree)
  --name   the marketplace's name (default: omniforge)
  --owner  its owner's name (default: the marketplace's name)
  --url    where Claude Code fetches it from (a git URL) in managed-settings.json; default: the folder itself
One plugin per layer (enterprise, project) and per git source or plugin; personal skills are never published. A
plugin's version changes exactly when its content does.`;

export async function run(args: string[], io: CliIO): Promise<number> {
  const cmd = parseCommand("publish marketplace", USAGE, args, { ...CONTEXT_FLAGS, ...stringFlags("out", "name", "owner", "url") }, io, {
    noArguments: true,
    required: { out: "the marketplace folder" },
  });
  if (typeof cmd === "number") return cmd;
  const { values } = cmd;
  let config;
  let ctx;
  try {
    config = configFrom(values, io);
    ({ ctx } = await contextFor(config, values, io.cwd, io.env));
  } catch (e) {
    return cmd.fail(e as Error);
  }
  const index = SkillIndex.build(config);
  const plugins = selectPublished(index, ctx, config.home);
  const out = path.resolve(io.cwd, values.out!);
  const marketplace = values.name ?? "omniforge";
  // With a console (its PostgreSQL with DATABASE_URL, else the data home's console.db), the publication is audited
  // there like every source change.
  let opened: ConsoleDatabase | null;
  try {
    opened = await openConsoleIfAny(config.home, "write", io.env);
  } catch (e) {
    io.err(`omniforge publish marketplace: ${e instanceof ConsoleDbError ? e.message : (e as Error).message}\n`);
    return 1;
  }
  try {
    const result = publishMarketplace({ out, marketplace, owner: values.owner ?? marketplace, plugins, url: values.url });
    for (const p of result.plugins) io.out(printable(`${p.name} ${p.version}: ${count(p.skills, "skill")}${p.changed ? " (changed)" : ""}`) + "\n");
    for (const r of result.removed) io.out(printable(`${r}: removed`) + "\n");
    const commit = await commitIfWorkTree(out, io);
    const digests = skillDigests(plugins);
    const context = { ...(environmentOf(values) ? { environment: environmentOf(values) } : {}), ...(values.agent ? { agent: values.agent } : {}), ...(values.tenant ? { tenant: values.tenant } : {}) };
    writePublishRecord(config.home, {
      out,
      marketplace,
      at: new Date().toISOString(),
      commit,
      context,
      plugins: result.plugins.map((p) => ({ name: p.name, version: p.version, skills: digests[p.name] ?? {} })),
    });
    if (opened) {
      auditSinkFor(opened.db, { stdout: false }).record({
        type: "marketplace_published",
        actor: { id: "cli" },
        outcome: "ok",
        details: { marketplace, out, commit, plugins: result.plugins.map((p) => ({ name: p.name, version: p.version, changed: p.changed })), removed: result.removed },
      });
    }
    io.out(printable(`marketplace ${marketplace} written to ${out}${commit ? `; committed ${commit}` : ""}`) + "\n");
    return 0;
  } catch (e) {
    if (e instanceof SourceError || (e as Error).name === "SkillCopyError") {
      io.err(`omniforge publish marketplace: ${printable((e as Error).message)}\n`);
      return 1;
    }
    throw e;
  } finally {
    if (opened) {
      await flushAudit(opened.db);
      await opened.close();
    }
  }
}

function git(dir: string, args: string[], io: CliIO): Promise<{ ok: boolean; out: string }> {
  return new Promise((done) => {
    execFile("git", ["-C", dir, ...args], { env: io.env as NodeJS.ProcessEnv, encoding: "utf8", timeout: 60_000 }, (e, out) => done({ ok: !e, out: out.trim() }));
  });
}

/** Commits the marketplace when `dir` is the top of a git work tree and something changed; the short commit id. */
async function commitIfWorkTree(dir: string, io: CliIO): Promise<string | null> {
  const top = await git(dir, ["rev-parse", "--show-toplevel"], io);
  if (!top.ok || fs.realpathSync(top.out) !== fs.realpathSync(dir)) return null;
  await git(dir, ["add", "-A", "."], io);
  if ((await git(dir, ["diff", "--cached", "--quiet"], io)).ok) return null;
  const made = await git(dir, ["commit", "-q", "--no-verify", "-m", "Publish the OmniForge catalog as a Claude Code marketplace"], io);
  if (!made.ok) throw new SourceError("the marketplace was written but git could not commit it (is user.name set?)", "publish.commit-failed");
  return (await git(dir, ["rev-parse", "--short=12", "HEAD"], io)).out;
}
