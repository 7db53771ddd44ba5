// `omniforge source add|list|update|rollback|remove`: skills from git repositories (server/runtime/sources). A source
// feeds the enterprise layer or a plugin of its name; with a console (its PostgreSQL with DATABASE_URL, else
// <home>/console.db: openConsoleIfAny), each change goes into the console's audit (actor "cli") with both commits
// and the URL without its password.
import path from "node:path";
import { parseCommand, stringFlags } from "../args";
import { ConsoleDbError, openConsoleIfAny, type ConsoleDatabase } from "../console-db";
import { errorLine } from "../error-line";
import type { CliIO } from "../io";
import { printable } from "../printable";
import { configFrom } from "./skill-list";
import { auditSinkFor, flushAudit } from "../../services/audit";
import { addSource, listSources, removeSource, rollbackSource, SourceError, updateSource, type SourceContext } from "../../runtime/sources/sources";
import { scrubSecrets } from "../../runtime/sources/url";
import { count } from "../../domain/plural";
import { readStoredPolicy } from "../../services/policy/store";
import { proposeUpdate, recordProposal } from "../../services/sources/reviews";

type Verb = "add" | "list" | "update" | "rollback" | "remove";

const USAGE = `usage: omniforge source add <name> --git URL [--ref REF] [--path SUBDIR] [--layer enterprise|plugin]
       omniforge source list [--json] [--offline]
       omniforge source update <name> [--to COMMIT] [--force]
       omniforge source rollback <name>
       omniforge source remove <name>
  --git     the repository: https://, ssh://, git://, file://, an absolute folder or user@host:path
  --ref     the branch or tag to follow (default: the repository's HEAD)
  --path    the folder of the repository that holds the skill folders (default: its top)
  --layer   enterprise (default), or plugin: the skills appear as plugin <name>
  --offline list without asking the repositories how many commits each source is behind
  --force   update even when the ref was force-pushed and no longer holds the pinned commit
  --home    the data home (default: $OMNIFORGE_HOME, else ~/.omniforge)
A source serves its pinned commit until updated; update and rollback move the pin, each change is audited.`;

const SUMMARY: Record<Verb, string> = {
  add: "Add a git repository as a source of skills, pinned to its ref's current commit",
  list: "List the sources: URL, ref, pinned commit, skills and commits behind",
  update: "Pin a source to its ref's newest commit (or --to a commit)",
  rollback: "Pin a source back to the commit it had before its last change",
  remove: "Remove a source and its checkouts",
};

const FLAGS = {
  home: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
  force: { type: "boolean" },
  offline: { type: "boolean" },
  ...stringFlags("git", "ref", "path", "layer", "to"),
} as const;

export function command(verb: Verb) {
  return {
    summary: SUMMARY[verb],
    async run(args: string[], io: CliIO): Promise<number> {
      const cmd = parseCommand(`source ${verb}`, USAGE, args, FLAGS, io);
      if (typeof cmd === "number") return cmd;
      const { values, positionals } = cmd;
      const secretUrl = values.git ?? "";
      // Whatever is printed passes here: git's messages or ours could hold the URL's password.
      const say = (text: string) => printable(scrubSecrets(text, secretUrl));
      const wants = verb === "list" ? 0 : 1;
      if (positionals.length !== wants) return cmd.fail(wants ? "give the source's name" : "no arguments expected");
      if (verb === "add" && !values.git) return cmd.fail("--git URL is required");
      if (values.layer !== undefined && values.layer !== "enterprise" && values.layer !== "plugin") return cmd.fail(`--layer is enterprise or plugin, not "${values.layer}"`);
      let home: string;
      try {
        home = configFrom({ home: values.home }, io).home;
      } catch (e) {
        return cmd.fail(e as Error);
      }
      let opened: ConsoleDatabase | null = null;
      if (verb !== "list") {
        try {
          opened = await openConsoleIfAny(home, "write", io.env);
        } catch (e) {
          io.err(`omniforge source ${verb}: ${e instanceof ConsoleDbError ? e.message : errorLine(e)}\n`);
          return 1;
        }
      }
      const db = opened?.db;
      const ctx: SourceContext = { home, env: io.env, actor: { id: "cli" }, ...(db ? { audit: auditSinkFor(db, { stdout: false }) } : {}) };
      const name = positionals[0] ?? "";
      try {
        switch (verb) {
          case "add": {
            // ./repo and ../repo are folders beside the person running the command; git would read them from elsewhere.
            const url = /^\.\.?\//.test(values.git!) ? path.resolve(io.cwd, values.git!) : values.git!;
            const rec = await addSource(ctx, { name, url, ref: values.ref, path: values.path, layer: values.layer as "enterprise" | "plugin" | undefined });
            const skills = (await listSources(ctx)).find((s) => s.name === name)?.skills ?? 0;
            io.out(say(`added source ${rec.name}: ${rec.url} ${rec.ref} at ${rec.commit.slice(0, 12)}, ${count(skills, "skill")} in the ${rec.layer === "plugin" ? `plugin layer as ${rec.name}` : "enterprise layer"}`) + "\n");
            break;
          }
          case "list":
            return await list(ctx, !!values.json, !!values.offline, io);
          case "update": {
            // Approvals of source updates (the console's policy): propose instead of moving the pin.
            if (db && (await readStoredPolicy(db)).requireApprovalForSources) {
              const p = await proposeUpdate(ctx, name, { to: values.to, force: values.force });
              if (p.from !== p.to && p.changes.length) {
                const n = await recordProposal(db, p, { audit: ctx.audit!, actor: ctx.actor! });
                io.out(say(`source ${name}: ${count(n, "changed skill")} of ${p.to.slice(0, 12)} to approve in the console (Sources page); it stays at ${p.from.slice(0, 12)} until then`) + "\n");
                break;
              }
            }
            const out = await updateSource(ctx, name, { to: values.to, force: values.force });
            if (out.from === out.to) io.out(say(`source ${name} is at ${out.to.slice(0, 12)} already; nothing changed`) + "\n");
            else io.out(say(`source ${name}: ${out.from.slice(0, 12)} -> ${out.to.slice(0, 12)}${out.rewound ? " (not a descendant of the old commit)" : ""}`) + "\n");
            break;
          }
          case "rollback": {
            const out = await rollbackSource(ctx, name);
            io.out(say(`source ${name} rolled back: ${out.from.slice(0, 12)} -> ${out.to.slice(0, 12)}`) + "\n");
            break;
          }
          case "remove": {
            const rec = await removeSource(ctx, name);
            io.out(say(`removed source ${rec.name} (was at ${rec.commit.slice(0, 12)})`) + "\n");
            break;
          }
        }
        return 0;
      } catch (e) {
        if (e instanceof SourceError || (e as Error).name === "GitError") {
          io.err(`omniforge source ${verb}: ${say((e as Error).message)}\n`);
          return 1;
        }
        throw new Error(scrubSecrets(errorLine(e), secretUrl));
      } finally {
        if (opened) {
          await flushAudit(opened.db);
          await opened.close();
        }
      }
    },
  };
}

async function list(ctx: SourceContext, json: boolean, offline: boolean, io: CliIO): Promise<number> {
  const all = await listSources(ctx, { remote: !offline });
  if (json) {
    const rows = all.map((s) => ({ name: s.name, url: s.url, ref: s.ref, path: s.path, layer: s.layer, commit: s.commit, previous: s.previous ?? null, skills: s.skills, behind: s.behind, head: s.head ?? null, ...(s.remoteError ? { remoteError: s.remoteError } : {}) }));
    io.out(JSON.stringify(rows, null, 2) + "\n");
    return 0;
  }
  if (!all.length) {
    io.out("no sources (add one with omniforge source add NAME --git URL)\n");
    return 0;
  }
  for (const s of all) {
    const behind = offline ? "not checked" : s.remoteError ? `unknown: ${s.remoteError}` : s.behind === null ? `the ref no longer holds it (force-pushed?)` : s.behind === 0 ? "up to date" : `${count(s.behind!, "commit")} behind`;
    io.out(printable(`${s.name}  ${s.url}  ${s.ref}${s.path ? `  ${s.path}` : ""}  ${s.commit.slice(0, 12)}  ${count(s.skills, "skill")}  ${s.layer}  ${behind}`) + "\n");
  }
  return 0;
}
