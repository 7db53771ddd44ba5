// `omniforge sync --from URL --token T --agent A [--agent B] --scope user|project [--dry-run]`: brings the skills
// the console gives this user into each agent's own folder. It prints the plan first; it only ever touches what
// its lock file says it wrote, so hand-written skills and hand-edited copies stay (reported as clashes).
import os from "node:os";
import path from "node:path";
import type { CliIO } from "../io";
import {
  AGENT_LABELS,
  applyFolder,
  fetchCatalog,
  fetchFolders,
  formatPlan,
  hasChanges,
  isSyncAgent,
  planFolder,
  readLock,
  reportSync,
  skillsFolder,
  SYNC_AGENTS,
  SyncRemoteError,
  type FolderPlan,
  type RemoteCatalog,
  type SyncAgent,
  type SyncScope,
} from "../../runtime/sync";
import { parseFlags } from "./skill-list";

export const summary = "Bring your console catalog into Claude Code, Codex, Gemini, OpenCode or Copilot's skill folders";

const USAGE = `usage: omniforge sync --from URL --token TOKEN --agent ${SYNC_AGENTS.join("|")} [--agent ...]
                      --scope user|project [--environment ENV] [--project DIR] [--dry-run]
  writes the skills your console catalog gives you (GET URL/api/catalog, a token with catalog:read) into each
  agent's skills folder; a lock file (.omniforge-sync.json) in each folder records what sync wrote, so it
  updates and removes only those, and never overwrites a skill it did not write; --dry-run prints the plan only
`;

interface Target {
  folder: string;
  agents: SyncAgent[];
}

export async function run(args: string[], io: CliIO): Promise<number> {
  const parsed = parseFlags(args, {
    from: { type: "string" },
    token: { type: "string" },
    agent: { type: "string", multiple: true },
    scope: { type: "string" },
    environment: { type: "string" },
    project: { type: "string" },
    "dry-run": { type: "boolean" },
    help: { type: "boolean", short: "h" },
  });
  const usage = (msg: string) => {
    io.err(`omniforge sync: ${msg}\n${USAGE}`);
    return 2;
  };
  if (typeof parsed === "string") return usage(parsed);
  const { values, positionals } = parsed;
  if (values.help) {
    io.out(USAGE);
    return 0;
  }
  if (positionals.length) return usage(`unexpected "${positionals[0]}"`);
  if (!values.from) return usage("--from is required (the console's address)");
  if (!/^https?:\/\//.test(values.from)) return usage(`--from must be an http(s) address, not "${values.from}"`);
  if (!values.token) return usage("--token is required (make one on the console's Access tokens page)");
  const agents = [...new Set(values.agent ?? [])];
  if (agents.length === 0) return usage("give at least one --agent");
  const bad = agents.find((a) => !isSyncAgent(a));
  if (bad) return usage(`unknown agent "${bad}": use ${SYNC_AGENTS.join(", ")}`);
  if (values.scope !== "user" && values.scope !== "project") return usage("--scope must be user or project");
  const scope = values.scope as SyncScope;
  const source = values.from.replace(/\/+$/, "");
  const places = {
    home: io.env.HOME || os.homedir(),
    projectRoot: path.resolve(io.cwd, values.project ?? "."),
    env: io.env,
  };

  // Agents whose folders coincide share one plan (and the first one's catalog).
  const targets: Target[] = [];
  for (const a of agents as SyncAgent[]) {
    const folder = skillsFolder(a, scope, places);
    const t = targets.find((x) => x.folder === folder);
    if (t) t.agents.push(a);
    else targets.push({ folder, agents: [a] });
  }

  try {
    const planned: { plan: FolderPlan; catalog: RemoteCatalog; agent: SyncAgent }[] = [];
    for (const t of targets) {
      const agent = t.agents[0]!;
      const catalog = await fetchCatalog(source, values.token, { agent, environment: values.environment });
      if (planned.length === 0) io.out(`sync from ${source} as ${catalog.user ?? "a machine token"} (${scope} scope)${values["dry-run"] ? ", dry run" : ""}\n`);
      const label = t.agents.map((a) => AGENT_LABELS[a]).join(" + ");
      const plan = planFolder(t.folder, t.agents, source, catalog.skills, label);
      for (const s of catalog.skipped) plan.notes.push(`${s.name}: not offered by the console (${s.reason})`);
      if (t.agents.length > 1) plan.notes.push(`${label} read the same folder; it holds ${AGENT_LABELS[agent]}'s catalog`);
      io.out(formatPlan(plan, label));
      planned.push({ plan, catalog, agent });
    }
    const clashes = planned.reduce((n, p) => n + p.plan.steps.filter((s) => s.kind === "clash").length, 0);
    if (values["dry-run"]) {
      io.out(`dry run: nothing written${clashes ? `; ${clashes} clash${clashes === 1 ? "" : "es"} would be left alone` : ""}\n`);
      return 0;
    }
    const counts = { add: 0, update: 0, remove: 0 };
    for (const { plan, agent } of planned) {
      if (!hasChanges(plan)) continue;
      const wanted = new Map(plan.steps.filter((s) => s.kind === "add" || s.kind === "update").map((s) => [s.name, s.digest!] as const));
      const folders = wanted.size ? await fetchFolders(source, values.token, { agent, environment: values.environment }, wanted) : new Map();
      applyFolder(plan, (name) => folders.get(name) ?? []);
      for (const s of plan.steps) if (s.kind in counts) counts[s.kind as keyof typeof counts]++;
    }
    // What each folder now holds from this console, so its "where is this deployed" view is current. A failed
    // report does not undo a good sync: it is a warning.
    for (const { plan } of planned) {
      const lock = readLock(plan.folder);
      const skills = Object.entries(lock.skills)
        .filter(([, e]) => e.source === source)
        .map(([name, e]) => ({ name, digest: e.digest }));
      for (const agent of plan.agents) {
        try {
          await reportSync(source, values.token, { host: os.hostname(), agent, scope, skills });
        } catch (e) {
          io.err(`omniforge sync: warning: ${(e as Error).message}\n`);
        }
      }
    }
    io.out(`synced: ${counts.add} added, ${counts.update} updated, ${counts.remove} removed${clashes ? `, ${clashes} clash${clashes === 1 ? "" : "es"} left alone` : ""}\n`);
    return 0;
  } catch (e) {
    if (e instanceof SyncRemoteError || (e instanceof Error && /lock file/.test(e.message))) {
      io.err(`omniforge sync: ${e.message}\n`);
      return 1;
    }
    throw e;
  }
}
