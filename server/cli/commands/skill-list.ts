// `omniforge skill list`: every skill definition in every layer, with its status (active, shadowed, invalid,
// blocked...), what shadows it, and its diagnostics count. `--json` prints one JSON array (one object per
// definition, in precedence order), `--jsonl` the same objects one per line; both are written as they are made,
// never as one big string. A listing checks what it shows, the frontmatter: body checks (links, length) are
// `skill validate`'s, and scripts/ is hashed only when the policy needs approval digests.
import fs from "node:fs";
import path from "node:path";
import { CONTEXT_FLAGS, parseCommand } from "../args";
import { chunkedWriter, type CliIO } from "../io";
import { contextFor } from "../policy-source";
import { printable } from "../printable";
import { layerConfigFromEnv, type LayerConfig } from "../../runtime/registry/layers";
import { resolve, resolveAll } from "../../runtime/registry/resolve";
import { listingCacheFrom } from "../../runtime/registry/listing-cache";
import { scannerWithHelper } from "../../runtime/registry/scan-helper";
import { scanThreadFrom } from "../../runtime/walk-helper";
import { SkillIndex } from "../../runtime/registry/skill-index";
import type { Resolution, ResolveContext, SkillEntry } from "../../runtime/registry/types";
import { entryValidity } from "../../runtime/registry/validity";
import { count } from "../../domain/plural";
import { sourceProvenance } from "../../runtime/sources/roots";

export const summary = "List every skill definition across the layers, with the active one of each name and why";

const USAGE = `usage: omniforge skill list [--json | --jsonl] [--home DIR] [--project DIR] [--user ID]
                          [--environment NAME] [--agent NAME] [--tenant NAME] [--policy FILE.json] [--stats]
  --home     OMNIFORGE_HOME (default: $OMNIFORGE_HOME, else ~/.omniforge)
  --project  project root (default: $OMNIFORGE_PROJECT_ROOT, else the current folder)
  --environment, --agent, --tenant  the caller's context for scoped skills (--env: short for --environment)
  --json     one JSON array, one object per definition, in precedence order
  --jsonl    the same objects as JSON Lines (one per line), for large catalogs and streaming readers
  --stats    on standard error: how the index was made (SKILL.md files read, entries reused from the last
             listing, the second thread's share of the walk, time)
Diagnostics are the frontmatter's under the omniforge rules, as the console judges skills (vendor and OmniForge
fields are warnings); omniforge skill validate also checks the body, under the spec's rules unless given
--rules omniforge.
`;

/**
 * The layers of a command's --home, --project and --user. Throws when a folder given (--home, --project,
 * OMNIFORGE_PROJECT_ROOT) is none: a typo would otherwise list, search or evaluate without that layer, silently. A
 * data home left to its default or OMNIFORGE_HOME may not exist yet (a first run), but not be a file.
 */
export function configFrom(values: { home?: string; project?: string; user?: string }, io: CliIO): LayerConfig {
  const config = layerConfigFromEnv({ home: values.home, project: values.project, user: values.user }, io.env, io.cwd);
  const projectFrom = values.project !== undefined ? "--project " : io.env.OMNIFORGE_PROJECT_ROOT ? "OMNIFORGE_PROJECT_ROOT=" : null;
  const homeFrom = values.home !== undefined ? "--home " : io.env.OMNIFORGE_HOME ? "OMNIFORGE_HOME=" : "the data home ";
  const home = statOf(config.home);
  if (home ? !home.isDirectory() : homeFrom === "--home ") throw new Error(`${homeFrom}${printable(config.home)}: not a folder`);
  if (projectFrom && !statOf(config.projectRoot)?.isDirectory()) throw new Error(`${projectFrom}${printable(config.projectRoot)}: not a folder`);
  return config;
}

/** What is at `p`, or null when nothing can be seen there (missing, below a file, not searchable). */
function statOf(p: string): fs.Stats | null {
  try {
    return fs.statSync(p);
  } catch {
    return null;
  }
}

/** configFrom plus `--skills DIR` catalog folders read as part of the project layer; throws when one is no folder. */
export function catalogConfigFrom(values: { home?: string; project?: string; user?: string; skills?: string[] }, io: CliIO): LayerConfig {
  const base = configFrom(values, io);
  const catalogs = (values.skills ?? []).map((d) => path.resolve(io.cwd, d));
  for (const d of catalogs) if (!statOf(d)?.isDirectory()) throw new Error(`--skills ${printable(d)}: not a folder`);
  return catalogs.length ? { ...base, catalogDirs: catalogs } : base;
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join("  ").trimEnd()).join("\n") + "\n";
}

export async function run(args: string[], io: CliIO): Promise<number> {
  const cmd = parseCommand("skill list", USAGE, args, {
    ...CONTEXT_FLAGS,
    policy: { type: "string" },
    jsonl: { type: "boolean" },
    stats: { type: "boolean" },
  }, io);
  if (typeof cmd === "number") return cmd;
  const { values, positionals, fail } = cmd;
  if (positionals.length) {
    return fail(`unexpected argument "${positionals[0]}"`);
  }
  if (values.json && values.jsonl) {
    return fail(`give --json or --jsonl, not both`);
  }
  let config: LayerConfig;
  let ctx: ResolveContext;
  let policyFrom: string | null;
  try {
    config = configFrom(values, io);
    ({ ctx, policyFrom } = await contextFor(config, values, io.cwd, io.env));
  } catch (e) {
    io.err(`omniforge skill list: ${(e as Error).message}\n`);
    return 2;
  }
  const needsApprovals = !!(ctx.policy?.requireApprovalForScripts || ctx.policy?.requireApprovalForProject);
  const entries = { checks: "frontmatter", scriptDigests: needsApprovals } as const;
  // The last listing of these folders: unchanged SKILL.md files are not read again (listing-cache.ts).
  const cache = io.build ? listingCacheFrom(io.env, io.build, config, entries) : null;
  const previous = cache?.read();
  // Nothing to start from: a helper thread walks and reads while this one checks (OMNIFORGE_SCAN_THREAD).
  const scan = previous?.size ? null : scannerWithHelper(scanThreadFrom(io.env));
  let index: SkillIndex;
  const t0 = performance.now();
  try {
    index = SkillIndex.build(config, { entries, previous, scan: scan?.run });
  } finally {
    scan?.close();
  }
  if (values.stats) {
    const { parsed, reused } = index.lastRebuild!;
    const walk = scan?.units ? `the walk in ${count(scan.units, "part")}, ${count(scan.helped, "part")} walked and read by a second thread` : "all on one thread";
    io.err(
      `omniforge skill list: ${count(index.size, "definition")}; ${count(parsed, "SKILL.md file")} read and checked, ${count(reused, "entry", "entries")} reused from the last listing; ${walk}; ${count(Math.round(performance.now() - t0), "ms", "ms")}\n`,
    );
  }
  // Every remembered entry reused as it was, in the same order: the index is the one the cache holds.
  const reusedAll = !!previous && sameEntries(previous, index.entries());
  if (cache && !reusedAll) cache.write(index.entries());
  type Active = { layer: string; plugin?: string; dir: string } | null;
  // An absent plugin is written as undefined, which JSON leaves out: the same output as omitting the key, without
  // a spread object per row. The active definition's object is made once per name and shared by its rows.
  // A skill from a git source carries its repository, path and commit (absent for every other skill).
  const provenance = sourceProvenance(config.home);
  // The whole answer of the last such listing, kept beside the cache: valid while the index is the cache's (above)
  // and everything else the rows are made of is the same: the format, the context (the caller's, the policy with
  // its approvals, config.yaml's settings and defaults) and the git sources' provenance. The build and the layer
  // folders are the cache's own key. Anything else (the table, --stats) is made each time.
  const answerInputs = cache && reusedAll && (values.json || values.jsonl) ? JSON.stringify({ jsonl: !!values.jsonl, ctx, provenance: [...provenance] }) : null;
  if (answerInputs !== null) {
    const kept = cache!.readAnswer(answerInputs);
    if (kept !== undefined) {
      if (io.outBytes) io.outBytes(kept);
      else io.out(Buffer.from(kept.buffer, kept.byteOffset, kept.byteLength).toString("utf8"));
      return 0;
    }
  }
  const activeOf = (a: Resolution["active"]): Active => (a ? { layer: a.layer, plugin: a.plugin || undefined, dir: a.dir } : null);
  const rowOf = (c: Resolution["candidates"][number], active: Active) => {
    const e = c.entry;
    // As the console's policy judges them (validity.ts): a reserved word it allows is no error here either.
    const { valid, diagnostics } = entryValidity(e, ctx.policy);
    let errors = 0;
    for (const d of diagnostics) if (d.severity === "error") errors++;
    return {
      name: e.name,
      layer: e.layer,
      plugin: e.plugin || undefined,
      source: provenance.get(e.root),
      status: c.status,
      reason: c.reason,
      active,
      description: e.description,
      dir: e.dir,
      file: e.file,
      digest: e.digest,
      priority: e.priority,
      tags: e.tags,
      hasScripts: e.hasScripts,
      loadable: e.loadable,
      valid,
      diagnosticsCount: diagnostics.length,
      errorCount: errors,
      diagnostics,
    };
  };
  if (values.json || values.jsonl) {
    // Written in pieces of about 64 KiB: a 10,000-skill catalog never becomes one 10 MB string, unless it is kept.
    const answer: string[] | null = answerInputs !== null ? [] : null;
    const write = chunkedWriter(io);
    const out = (text: string | null) => {
      if (text !== null) answer?.push(text);
      write(text);
    };
    let first = true;
    if (values.json) out("[");
    // Name by name, each resolution written and dropped: holding all of them until the end (resolveAll) made the
    // garbage collector copy them again and again, about 4% of a first listing of 10,000 skills.
    for (const name of index.names()) {
      const r = resolve(index, name, ctx);
      const active = activeOf(r.active);
      for (const c of r.candidates) {
        const line = JSON.stringify(rowOf(c, active));
        out(values.jsonl ? line + "\n" : (first ? "\n" : ",\n") + line);
        first = false;
      }
    }
    if (values.json) out(first ? "]\n" : "\n]\n");
    out(null);
    if (answer) cache!.writeAnswer(answerInputs!, answer.join(""));
    return 0;
  }
  // In name order, as the JSON above (an object's values would put names of digits first, in numeric order).
  const { byName } = resolveAll(index, ctx);
  const resolutions = index.names().map((name) => byName[name]!);
  const rows = resolutions.flatMap((r) => {
    const active = activeOf(r.active);
    return r.candidates.map((c) => rowOf(c, active));
  });
  if (!rows.length) {
    io.out(`no skills found (home ${config.home}, project ${config.projectRoot})\n`);
    return 0;
  }
  const layerLabel = (x: { layer: string; plugin?: string }) => (x.plugin ? `plugin:${x.plugin}` : x.layer);
  // Names, folders and reasons come from the files: control characters in them (an escape sequence in a name, a
  // newline in a folder name) are shown, not obeyed by the terminal.
  const body = rows.map((r) => [
    printable(r.name),
    printable(layerLabel(r)),
    r.status,
    r.status === "active" ? "-" : r.status === "shadowed" && r.active ? printable(layerLabel(r.active)) : r.status === "shadowed" ? "held" : "-",
    r.errorCount ? `${r.diagnosticsCount} (${count(r.errorCount, "error")})` : String(r.diagnosticsCount),
    printable(r.dir),
  ]);
  io.out(table([["NAME", "LAYER", "STATUS", "SHADOWED BY", "DIAGNOSTICS", "PATH"], ...body]));
  const notes = [
    ...resolutions.flatMap((r) => r.warnings.map((w) => `warning: ${printable(w)}`)),
    ...rows.filter((r) => r.status !== "active" && r.status !== "shadowed").map((r) => printable(`${r.status}: ${r.name} (${layerLabel(r)}): ${r.reason}`)),
  ];
  if (notes.length) io.out("\n" + notes.join("\n") + "\n");
  const active = resolutions.filter((r) => r.active).length;
  io.out(`\n${count(rows.length, "definition")}, ${count(active, "active skill")}; policy: ${policyFrom ?? "none (no console.db in the data home, no --policy)"}\n`);
  return 0;
}

/** Whether `now` holds exactly the remembered entries, the same objects in the same order. */
function sameEntries(previous: Map<string, SkillEntry>, now: readonly SkillEntry[]): boolean {
  if (previous.size !== now.length) return false;
  let i = 0;
  for (const e of previous.values()) if (now[i++] !== e) return false;
  return true;
}
