// `omniforge policy list|block|unblock|export|import`: the console's policy without a browser (provisioning, policy
// kept in git). Works on the console's database (PostgreSQL with DATABASE_URL, else <home>/console.db); every change goes through the governance service and its audit chain,
// exactly as a change made in the console (actor "cli").
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { LAYER_FLAGS, parseCommand } from "../args";
import { ConsoleDbError, openConsole, type ConsoleDatabase } from "../console-db";
import { errorLine } from "../error-line";
import type { CliIO } from "../io";
import { printable, printableLines } from "../printable";
import { isServiceError } from "../../domain/errors";
import { configFrom } from "./skill-list";
import { auditSinkFor, flushAudit } from "../../services/audit";
import { changePolicy, exportPolicy, importPolicy } from "../../services/governance";
import { SETTINGS_FILE_MAX_BYTES } from "../../domain/vocabulary";
import { FileReadError, readRegularTextFile } from "../../runtime/read-file";
import { readStoredPolicy } from "../../services/policy/store";
import { RESERVED_NAME_WORDS } from "../../runtime/skill/name-rule";

type Verb = "list" | "block" | "unblock" | "export" | "import";

const USAGE = `usage: omniforge policy list [--json]
       omniforge policy block <name> [--reason TEXT]
       omniforge policy unblock <name>
       omniforge policy export <file.yaml>      (- for standard output)
       omniforge policy import <file.yaml>      (checked whole first: any wrong entry changes nothing)
  --home  the data home holding console.db (default: $OMNIFORGE_HOME, else ~/.omniforge);
          with DATABASE_URL set, the console's PostgreSQL instead
Changes are audited in the console's log as made by "cli".`;

const SUMMARY: Record<Verb, string> = {
  list: "Show the console's policy (blocked names, disabled definitions, allowlist, patterns, approvals)",
  block: "Block a skill name everywhere (audited as a console change)",
  unblock: "Unblock a skill name",
  export: "Write the policy as YAML (for review or git)",
  import: "Replace the policy with a YAML file, checked whole first",
};

export function command(verb: Verb) {
  return {
    summary: SUMMARY[verb],
    async run(args: string[], io: CliIO): Promise<number> {
      const cmd = parseCommand(`policy ${verb}`, USAGE, args, { ...LAYER_FLAGS, reason: { type: "string" } }, io);
      if (typeof cmd === "number") return cmd;
      const { values, positionals } = cmd;
      // A refusal of the console (exit 1) is not a usage problem: no usage under it.
      const fail = (msg: string, code = 2) => {
        if (code === 2) return cmd.fail(msg);
        // An import's refusal lists one problem per line; other control characters are shown, not obeyed.
        io.err(`omniforge policy ${verb}: ${printableLines(msg)}\n`);
        return code;
      };
      const wants = verb === "list" ? 0 : 1;
      if (positionals.length !== wants) return fail(wants ? "give one argument" : "no arguments expected");
      let config;
      try {
        config = configFrom(values, io);
      } catch (e) {
        return cmd.fail(e as Error);
      }
      // list and export only read: the database is opened read-only and never migrated or created.
      const writes = verb !== "list" && verb !== "export";
      let opened: ConsoleDatabase;
      try {
        opened = await openConsole(config.home, writes ? "write" : "read", io.env);
      } catch (e) {
        return fail(e instanceof ConsoleDbError ? e.message : errorLine(e), 1);
      }
      const db = opened.db;
      const audit = writes ? auditSinkFor(db, { stdout: false }) : null;
      const actor = { id: "cli", email: `${os.userInfo().username}@${os.hostname()}` };
      // Names, patterns and paths come from the database or the command line: shown, never obeyed by the terminal.
      const shown = (items: readonly string[]) => items.map(printable).join(", ");
      const arg = printable(positionals[0] ?? "");
      try {
        if (verb === "list") {
          const p = await readStoredPolicy(db);
          if (values.json) io.out(JSON.stringify(p) + "\n");
          else {
            io.out(`blocked names: ${shown(p.blockedNames) || "none"}\n`);
            io.out(`disabled: ${shown(p.disabled.map((d) => `${d.name} (${d.layer}${d.plugin ? `:${d.plugin}` : ""})`)) || "none"}\n`);
            io.out(`allowlist: ${p.allowlist ? shown(p.allowlist) || "(empty: nothing may be active)" : "off"}\n`);
            io.out(`forbidden name patterns: ${shown(p.forbiddenNamePatterns ?? []) || "none"}\n`);
            io.out(`approval required for: ${[p.requireApprovalForScripts && "skills with scripts", p.requireApprovalForProject && "project skills", p.requireApprovalForSources && "git source updates"].filter(Boolean).join(", ") || "nothing"}\n`);
            io.out(`name must match folder: ${p.nameMustMatchFolder ? "yes (a mismatch is invalid)" : "no (a mismatch is a warning)"}\n`);
            io.out(`reserved words in names (${RESERVED_NAME_WORDS.join(", ")}): ${p.allowReservedNames ? "allowed" : "an error under the omniforge rules"}\n`);
            io.out(`administrators may change personal skills: ${p.adminsEditPersonal ? "yes" : "no (read-only review)"}\n`);
          }
          return 0;
        }
        if (verb === "block" || verb === "unblock") {
          const name = positionals[0]!;
          const before = (await readStoredPolicy(db)).blockedNames.includes(name);
          await changePolicy(db, verb === "block" ? { op: "block", name, ...(values.reason ? { reason: values.reason } : {}) } : { op: "unblock", name }, { audit: audit!, actor });
          io.out(`${arg}: ${verb === "block" ? (before ? "was already blocked" : "blocked") : before ? "unblocked" : "was not blocked"}\n`);
          return 0;
        }
        if (verb === "export") {
          const text = await exportPolicy(db);
          if (positionals[0] === "-") io.out(text);
          else {
            fs.writeFileSync(path.resolve(io.cwd, positionals[0]!), text);
            io.out(`wrote ${arg}\n`);
          }
          return 0;
        }
        const file = path.resolve(io.cwd, positionals[0]!);
        let text: string;
        try {
          text = readRegularTextFile(file, SETTINGS_FILE_MAX_BYTES);
        } catch (e) {
          return fail(`cannot read ${arg}: ${e instanceof FileReadError ? e.message : (e as Error).message}`, 1);
        }
        const r = await importPolicy(db, text, { audit: audit!, actor, source: file });
        io.out(r.changed ? `policy replaced from ${arg}\n` : `no change: ${arg} is the current policy\n`);
        return 0;
      } catch (e) {
        return fail(isServiceError(e) ? e.message : errorLine(e), 1);
      } finally {
        if (writes) await flushAudit(db);
        await opened.close();
      }
    },
  };
}
