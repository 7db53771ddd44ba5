// `omniforge skill install <folder|.zip|.tar.gz> [--plugin NAME] [--force]`: installs a skill into the plugin
// layer. Archives are checked completely (paths, links, sizes, ratio, one skill root) before anything is written.
import path from "node:path";
import { LAYER_FLAGS, parseCommand } from "../args";
import type { CliIO } from "../io";
import { installSkill, InstallError } from "../../runtime/registry/install";
import { configFrom } from "./skill-list";
import { count } from "../../domain/plural";

export const summary = "Install a skill (folder, .zip or .tar.gz) into the plugin layer";

const USAGE = `usage: omniforge skill install <folder|file.zip|file.tar.gz> [--plugin NAME] [--force] [--json]
                             [--home DIR] [--project DIR]
`;

export async function run(args: string[], io: CliIO): Promise<number> {
  const cmd = parseCommand("skill install", USAGE, args, { ...LAYER_FLAGS, plugin: { type: "string" }, force: { type: "boolean" } }, io);
  if (typeof cmd === "number") return cmd;
  const { values, positionals, fail } = cmd;
  if (positionals.length !== 1) {
    return fail(`${positionals.length ? "give exactly one source" : "missing the folder or archive to install"}`);
  }
  let config;
  try {
    config = configFrom(values, io);
  } catch (e) {
    io.err(`omniforge skill install: ${(e as Error).message}\n`);
    return 2;
  }
  const source = positionals[0]!;
  try {
    const r = await installSkill(path.resolve(io.cwd, source), config, { plugin: values.plugin, force: values.force });
    if (values.json) {
      io.out(JSON.stringify(r, null, 2) + "\n");
      return 0;
    }
    io.out(`installed "${r.name}" as plugin "${r.plugin}" (${count(r.files, "file")}, ${r.format}) at ${r.dir}\n`);
    if (r.replaced) io.out(`replaced the previous install of "${r.plugin}"\n`);
    for (const d of r.diagnostics) io.out(`  ${d.severity}: ${d.message} (SKILL.md:${d.line})\n`);
    if (r.skipped.length) io.out(`skipped ${count(r.skipped.length, "macOS metadata entry", "macOS metadata entries")}\n`);
    io.out(`address it as ${r.name}@${r.plugin}; higher layers still win for the name "${r.name}"\n`);
    return 0;
  } catch (e) {
    io.err(`omniforge skill install: ${e instanceof InstallError ? "" : "failed: "}${(e as Error).message}\n`);
    return 1;
  }
}
