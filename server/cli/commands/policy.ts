// `omniforge policy list|block|unblock|export|import`: the console's policy without a browser (provisioning, policy
// kept in git). Works on <home>/console.db; every change goes through the governance service and its audit chain,
// exactly as a change made in the console (actor "cli").
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDb } from "../../../db/client";
import { LAYER_FLAGS, parseCommand } from "../args";
import type { CliIO } from "../io";
import { configFrom } from "./skill-list";
import { auditSinkFor, flushAudit } from "../../services/audit";
import { changePolicy, exportPolicy, importPolicy } from "../../services/governance";
import { SETTINGS_FILE_MAX_BYTES } from "../../domain/vocabulary";
import { FileReadError, readRegularTextFile } from "../../runtime/read-file";
import { readStoredPolicy } from "../../services/policy/store";

type Verb = "list" | "block" | "unblock" | "export" | "import";

const USAGE = `usage: omniforge policy list [--json]
       omniforge policy block <name> [--reason TEXT]
       omniforge policy unblock <name>
       omniforge policy export <file.yaml>      (- for standard output)
       omniforge policy import <file.yaml>      (checked whole first: any wrong entry changes nothing)
  --home  the data home holding console.db (default: $OMNIFORGE_HOME, else ~/.omniforge)
Changes are audited in the console's log as made by "cli".`;

const SUMMARY: Record<Verb, string> = {
  list: "Show the console's policy (blocked names, disabled definitions, allowlist, patterns, approvals)",
  block: "Block a skill name everywhere (audited as a console change)",
  unblock: "Unblock a skill name",
  export: "Write the policy as YAML (for review or git)",
  import: "Replace the policy with a YAML file, checked whole first",
};

function openConsole(home: string): ReturnType<typeof openDb> | string {
  const file = path.join(path.resolve(home), "console.db");
  if (!fs.existsSync(file)) return `no console database at ${file}: start the console once (npm start) or pass --home`;
  return openDb(file);
}

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
        io.err(`omniforge policy ${verb}: ${msg}\n`);
        return code;
      };
      const wants = verb === "list" ? 0 : 1;
      if (positionals.length !== wants) return fail(wants ? "give one argument" : "no arguments expected");
      let config;
      try {
        config = configFrom(values, io);
      } catch (e) {
        return fail((e as Error).message);
      }
      const db = openConsole(config.home);
      if (typeof db === "string") return fail(db, 1);
      const audit = auditSinkFor(db, { stdout: false });
      const actor = { id: "cli", email: `${os.userInfo().username}@${os.hostname()}` };
      try {
        if (verb === "list") {
          const p = readStoredPolicy(db);
          if (values.json) io.out(JSON.stringify(p) + "\n");
          else {
            io.out(`blocked names: ${p.blockedNames.join(", ") || "none"}\n`);
            io.out(`disabled: ${p.disabled.map((d) => `${d.name} (${d.layer}${d.plugin ? `:${d.plugin}` : ""})`).join(", ") || "none"}\n`);
            io.out(`allowlist: ${p.allowlist ? p.allowlist.join(", ") || "(empty: nothing may be active)" : "off"}\n`);
            io.out(`forbidden name patterns: ${p.forbiddenNamePatterns?.join(", ") || "none"}\n`);
            io.out(`approval required for: ${[p.requireApprovalForScripts && "skills with scripts", p.requireApprovalForProject && "project skills"].filter(Boolean).join(", ") || "nothing"}\n`);
            io.out(`name must match folder: ${p.nameMustMatchFolder ? "yes (a mismatch is invalid)" : "no (a mismatch is a warning)"}\n`);
            io.out(`administrators may change personal skills: ${p.adminsEditPersonal ? "yes" : "no (read-only review)"}\n`);
          }
          return 0;
        }
        if (verb === "block" || verb === "unblock") {
          const name = positionals[0]!;
          const before = readStoredPolicy(db).blockedNames.includes(name);
          changePolicy(db, verb === "block" ? { op: "block", name, ...(values.reason ? { reason: values.reason } : {}) } : { op: "unblock", name }, { audit, actor });
          io.out(`${name}: ${verb === "block" ? (before ? "was already blocked" : "blocked") : before ? "unblocked" : "was not blocked"}\n`);
          return 0;
        }
        if (verb === "export") {
          const text = exportPolicy(db);
          if (positionals[0] === "-") io.out(text);
          else {
            fs.writeFileSync(path.resolve(io.cwd, positionals[0]!), text);
            io.out(`wrote ${positionals[0]}\n`);
          }
          return 0;
        }
        const file = path.resolve(io.cwd, positionals[0]!);
        let text: string;
        try {
          text = readRegularTextFile(file, SETTINGS_FILE_MAX_BYTES);
        } catch (e) {
          return fail(`cannot read ${positionals[0]}: ${e instanceof FileReadError ? e.message : (e as Error).message}`, 1);
        }
        const r = importPolicy(db, text, { audit, actor, source: file });
        io.out(r.changed ? `policy replaced from ${positionals[0]}\n` : `no change: ${positionals[0]} is the current policy\n`);
        return 0;
      } catch (e) {
        return fail((e as Error).message, 1);
      } finally {
        flushAudit(db);
      }
    },
  };
}
