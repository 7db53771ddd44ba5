// `omniforge sync --from URL --token T --agent A [--agent B] --scope user|project [--dry-run]`: brings the skills
// the console gives this user into each agent's own folder. It prints the plan first; it only ever touches what
// its lock file says it wrote, so hand-written skills and hand-edited copies stay (reported as clashes).
import os from "node:os";
import path from "node:path";
import { ENVIRONMENT_FLAGS, environmentOf, parseCommand, stringFlags, wholeNumber } from "../args";
import type { CliIO } from "../io";
import { printable } from "../printable";
import { setting } from "../../../env";
import { AGENT_LABELS, SYNC_AGENTS, type SyncAgent } from "../../domain/vocabulary";
import { count } from "../../domain/plural";
import {
  applyFolder,
  catalogChanged,
  fetchCatalog,
  fetchFolders,
  formatPlan,
  hasChanges,
  isSyncAgent,
  planFolder,
  readLock,
  reportSync,
  sharedAliasOf,
  skillsFolder,
  SyncFolderError,
  SyncRemoteError,
  type FolderPlan,
  type RemoteCatalog,
  type SyncScope,
} from "../../runtime/sync";

export const summary = "Bring your console catalog into Claude Code, Codex, Gemini, OpenCode or Copilot's skill folders";

const DEFAULT_EVERY_SECONDS = 300;

const USAGE = `usage: omniforge sync --from URL --token TOKEN --agent ${SYNC_AGENTS.join("|")} [--agent ...]
                      --scope user|project [--environment ENV] [--project DIR] [--dry-run]
                      [--watch [--every SECONDS]]
  writes the skills your console catalog gives you (GET URL/api/catalog, a token with catalog:read) into each
  agent's skills folder; a lock file (.omniforge-sync.json) in each folder records what sync wrote, so it
  updates and removes only those, and never overwrites a skill it did not write; --dry-run prints the plan only;
  --watch keeps going, asking every --every seconds (default ${DEFAULT_EVERY_SECONDS}) whether the catalog changed (ETag)
`;

/** The plan as printed: names, reasons and notes carry the console's text (and the lock's), escaped for the terminal. */
const shown = (p: FolderPlan): FolderPlan => ({
  ...p,
  folder: printable(p.folder),
  steps: p.steps.map((s) => ({
    ...s,
    name: printable(s.name),
    ...(s.digest === undefined ? {} : { digest: printable(s.digest) }),
    ...(s.reason === undefined ? {} : { reason: printable(s.reason) }),
  })),
  notes: p.notes.map(printable),
});

interface Target {
  folder: string;
  agents: SyncAgent[];
}

export async function run(args: string[], io: CliIO): Promise<number> {
  return runSync(args, io);
}

/** Tests bound --watch with `rounds` and a `sleep` that does not wait. */
export interface WatchControl {
  rounds?: number;
  sleep?: (ms: number) => Promise<void>;
}

const wait = (ms: number) => new Promise<void>((ok) => setTimeout(ok, ms));

/** A signal stopped the writing between two skills: what the folder holds, for the last line. */
class Interrupted extends Error {}

/** A URL's user name and password ("http://u:pw@host", also without the scheme): what --from must not print. */
const USERINFO = /^(?:[a-z][a-z0-9+.-]*:\/\/)?([^/?#\s]*)@/i;

/** The value of `--flag` as the parser takes it (`--flag V` or `--flag=V`), the last one given. */
function flagIn(args: string[], flag: string): string | undefined {
  let value: string | undefined;
  args.forEach((a, i) => {
    if (a === flag) value = args[i + 1];
    else if (a.startsWith(`${flag}=`)) value = a.slice(flag.length + 1);
  });
  return value;
}

/**
 * `io` that shows the token and --from's user name and password as ***, whatever prints them (our messages, the
 * console's, an error from the network). A secret shorter than 6 characters is hardly one, and hiding it would
 * blank every word holding those letters; a user name and password are hidden with their "@".
 */
function hidingSecrets(io: CliIO, args: string[]): CliIO {
  const secrets: [string, string][] = [];
  const userinfo = USERINFO.exec(flagIn(args, "--from") ?? "")?.[1];
  if (userinfo) secrets.push([`${userinfo}@`, "***@"]);
  const token = flagIn(args, "--token");
  if (token && token.length >= 6) secrets.push([token, "***"]);
  const hide = (text: string) => secrets.reduce((t, [secret, shown]) => t.split(secret).join(shown), text);
  return { ...io, out: (t) => io.out(hide(t)), err: (t) => io.err(hide(t)) };
}

export async function runSync(args: string[], rawIo: CliIO, watchControl: WatchControl = {}): Promise<number> {
  const io = hidingSecrets(rawIo, args);
  const cmd = parseCommand("sync", USAGE, args, {
    agent: { type: "string", multiple: true },
    "dry-run": { type: "boolean" },
    watch: { type: "boolean" },
    help: { type: "boolean", short: "h" },
    ...ENVIRONMENT_FLAGS,
    ...stringFlags("from", "token", "scope", "project", "every"),
  }, io, { noArguments: true, required: { from: "the console's address" } });
  if (typeof cmd === "number") return cmd;
  const { values, fail: usage } = cmd;
  if (!/^https?:\/\//.test(values.from)) return usage(`--from must be an http(s) address, not "${values.from}"`);
  // fetch refuses such an address anyway; and the lock file records --from: it must not hold a password.
  if (USERINFO.test(values.from)) return usage(`--from must not carry a user name or password (${values.from}); the token is what signs sync in`);
  if (!values.token) return usage("--token is required (make one on the console's Access tokens page)");
  const agents = [...new Set(values.agent ?? [])];
  if (agents.length === 0) return usage("give at least one --agent");
  const bad = agents.find((a) => !isSyncAgent(a));
  if (bad) return usage(`unknown agent "${bad}": use ${SYNC_AGENTS.join(", ")}`);
  if (values.scope !== "user" && values.scope !== "project") return usage("--scope must be user or project");
  const scope = values.scope as SyncScope;
  const every = values.every === undefined ? DEFAULT_EVERY_SECONDS : wholeNumber(values.every, 10);
  if (every === null) return usage("--every takes whole seconds, at least 10");
  if (values.watch && values["dry-run"]) return usage("--watch and --dry-run do not go together");
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

  const token = values.token;
  // A console that takes the connection and never answers stops the run (or a --watch round) with one line.
  const net = { timeoutMs: setting("OMNIFORGE_SYNC_TIMEOUT_SECONDS", io.env) * 1000 };
  const q = (agent: SyncAgent) => ({ agent, environment: environmentOf(values) });

  // Ctrl-C (or a polite kill) while a folder is written lets the skill in hand land and be recorded, then stops;
  // at any other time it ends the process at once, which leaves nothing half-written (nothing is being written).
  let stoppedBy: NodeJS.Signals | null = null;
  const whileWriting = async <T>(work: (stopped: () => boolean) => Promise<T>): Promise<T> => {
    const onSignal = (signal: NodeJS.Signals) => void (stoppedBy ??= signal);
    process.on("SIGINT", onSignal);
    process.on("SIGTERM", onSignal);
    try {
      return await work(() => stoppedBy !== null);
    } finally {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
    }
  };

  /** One sync: plan every folder, print, apply (unless a dry run), report. The catalogs' ETags come back. */
  const pass = async (): Promise<Map<SyncAgent, string>> => {
    const etags = new Map<SyncAgent, string>();
    const planned: { plan: FolderPlan; agent: SyncAgent; catalog: RemoteCatalog; label: string }[] = [];
    for (const t of targets) {
      const agent = t.agents[0]!;
      const catalog: RemoteCatalog = await fetchCatalog(source, token, q(agent), net);
      etags.set(agent, catalog.etag);
      if (planned.length === 0) io.out(`sync from ${source} as ${printable(catalog.user ?? "a machine token")} (${scope} scope)${values["dry-run"] ? ", dry run" : ""}\n`);
      const label = t.agents.map((a) => AGENT_LABELS[a]).join(" + ");
      const plan = planFolder(t.folder, t.agents, source, catalog.skills, label);
      for (const s of catalog.skipped) plan.notes.push(`${s.name}: not offered by the console (${s.reason})`);
      if (t.agents.length > 1) plan.notes.push(`${label} read the same folder; it holds ${AGENT_LABELS[agent]}'s catalog`);
      for (const a of t.agents) {
        const alias = sharedAliasOf(a, scope, places);
        const filler = alias === t.folder ? undefined : targets.find((x) => x.folder === alias);
        if (filler) {
          plan.notes.push(
            `${AGENT_LABELS[a]} also reads ${printable(alias!)}, which this sync fills for ${filler.agents.map((x) => AGENT_LABELS[x]).join(" + ")}: it will see each skill twice. Sync one of the two, or --agent agents alone for every agent that reads that folder`,
          );
        }
      }
      io.out(formatPlan(shown(plan), label));
      planned.push({ plan, agent, catalog, label });
    }
    const clashes = planned.reduce((n, p) => n + p.plan.steps.filter((s) => s.kind === "clash").length, 0);
    const clashText = (tail: string) => `${count(clashes, "clash", "clashes")} ${tail}`;
    if (values["dry-run"]) {
      io.out(`dry run: nothing written${clashes ? `; ${clashText("would be left alone")}` : ""}\n`);
      return etags;
    }
    const counts = { add: 0, update: 0, remove: 0 };
    for (const { plan, agent, catalog, label } of planned) {
      if (!hasChanges(plan)) continue;
      const wanted = new Map(plan.steps.filter((s) => s.kind === "add" || s.kind === "update").map((s) => [s.name, s.digest!] as const));
      const folders = wanted.size ? await fetchFolders(source, token, q(agent), wanted, net) : new Map();
      const outcome = await whileWriting((stopped) =>
        applyFolder(plan, () => planFolder(plan.folder, plan.agents, source, catalog.skills, label), (name) => folders.get(name) ?? [], { stop: stopped }),
      );
      for (const s of outcome.done) counts[s.kind as keyof typeof counts]++;
      for (const s of outcome.skipped) {
        io.err(`omniforge sync: ${printable(s.name)} in ${printable(plan.folder)} changed since the plan above (another sync, or an edit); left for the next sync\n`);
      }
      if (outcome.interrupted || stoppedBy) throw new Interrupted(`${plan.folder} holds the ${count(outcome.done.length, "skill")} written so far, recorded in its lock file; run sync again to finish`);
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
          await reportSync(source, token, { host: os.hostname(), agent, scope, skills }, net);
        } catch (e) {
          io.err(`omniforge sync: warning: ${printable((e as Error).message)}\n`);
        }
      }
    }
    io.out(`synced: ${counts.add} added, ${counts.update} updated, ${counts.remove} removed${clashes ? `, ${clashText("left alone")}` : ""}\n`);
    return etags;
  };

  // What sync can say in one line: the console's answer, the lock file, or the file system refusing a write (no
  // permission, a full disk, a folder where a file goes), named by the file. Anything else is a bug: thrown.
  const problem = (e: unknown): string | null => {
    if (e instanceof SyncRemoteError || e instanceof SyncFolderError) return e.message;
    const fsError = e as NodeJS.ErrnoException;
    if (fsError instanceof Error && typeof fsError.code === "string" && typeof fsError.syscall === "string") {
      return `could not ${fsError.syscall} ${fsError.path ?? "a file"}: ${fsError.code}`;
    }
    return null;
  };
  /** 128 + the signal's number, as the shell reports a command a signal ended: 130 for Ctrl-C. */
  const interruptedExit = (e: Interrupted): number => {
    io.err(`omniforge sync: interrupted: ${printable(e.message)}\n`);
    return 128 + (os.constants.signals[stoppedBy ?? "SIGINT"] ?? 2);
  };
  let etags: Map<SyncAgent, string>;
  try {
    etags = await pass();
  } catch (e) {
    if (e instanceof Interrupted) return interruptedExit(e);
    const line = problem(e);
    if (line === null) throw e;
    io.err(`omniforge sync: ${printable(line)}\n`);
    return 1;
  }
  if (!values.watch) return 0;
  // --watch: ask with If-None-Match every interval; only a changed catalog costs a full pass. A console that is
  // briefly away is a warning, not the end of the watch.
  const sleep = watchControl.sleep ?? wait;
  io.err(`omniforge sync: watching ${source} every ${every}s (Ctrl-C stops)\n`);
  for (let round = 1; watchControl.rounds === undefined || round <= watchControl.rounds; round++) {
    await sleep(every * 1000);
    try {
      let changed = false;
      for (const [agent, etag] of etags) changed = (await catalogChanged(source, token, q(agent), etag, net)) || changed;
      if (changed) etags = await pass();
    } catch (e) {
      if (e instanceof Interrupted) return interruptedExit(e);
      const line = problem(e);
      if (line === null) throw e;
      io.err(`omniforge sync: warning: ${printable(line)}\n`);
    }
  }
  return 0;
}
