// `omniforge skill deploy <name> --scope enterprise|personal|project [--from LAYER] [--force]`: copies the
// winning (or a chosen) definition into a layer, atomically, and says what changes for that name.
import { CONTEXT_FLAGS, parseCommand, stringFlags } from "../args";
import { ConsoleDbError, openConsoleIfAny, type ConsoleDatabase } from "../console-db";
import { errorLine } from "../error-line";
import { contextFor } from "../policy-source";
import type { CliIO } from "../io";
import { DeployError } from "../../runtime/registry/deploy";
import { cliDeploy, formatPreview } from "../../services/governance/cli-deploy";
import { GovernanceError } from "../../services/governance/errors";
import type { DeployTarget } from "../../services/governance/deploy";
import { isLayerName, type LayerName } from "../../runtime/registry/layers";
import { configFrom } from "./skill-list";

export const summary = "Copy a skill's definition into the enterprise, personal or project layer";

const USAGE = `usage: omniforge skill deploy <name|name@plugin> --scope enterprise|personal|project
                            [--from enterprise|personal|project|plugin] [--force] [--dry-run] [--json]
                            [--environment ENV] [--agent NAME] [--tenant NAME] [--home DIR] [--project DIR] [--user ID]
  copies the definition of <name> active in the given context (as agent run takes it; config.yaml's defaults
  and OMNIFORGE_DEFAULT_* fill what is not given), or the one in --from, into the --scope layer, after printing
  which agents' resolution changes; with the console's database (DATABASE_URL's PostgreSQL, else
  <home>/console.db) the console's policy and audit log apply
`;

const TARGETS = ["enterprise", "personal", "project"];

export async function run(args: string[], io: CliIO): Promise<number> {
  const cmd = parseCommand("skill deploy", USAGE, args, {
    ...CONTEXT_FLAGS,
    force: { type: "boolean" },
    "dry-run": { type: "boolean" },
    ...stringFlags("scope", "from"),
  }, io);
  if (typeof cmd === "number") return cmd;
  const { values, positionals, fail: usage } = cmd;
  if (positionals.length !== 1) return usage(positionals.length ? "give exactly one skill name" : "missing the skill name");
  if (!values.scope) return usage("--scope is required (enterprise, personal or project)");
  if (!TARGETS.includes(values.scope)) return usage(`--scope must be enterprise, personal or project, not "${values.scope}"`);
  if (values.from !== undefined && !isLayerName(values.from)) return usage(`--from must be a layer name, not "${values.from}"`);
  let config;
  try {
    config = configFrom(values, io);
  } catch (e) {
    return usage(e as Error);
  }
  let context;
  try {
    // The policy is cliDeploy's (the console's when there is one); the scope values, defaults and config.yaml's
    // settings come from here, as for agent run.
    const { ctx } = await contextFor(config, values, io.cwd, io.env);
    context = { ...ctx };
    delete context.policy;
  } catch (e) {
    io.err(`omniforge skill deploy: ${(e as Error).message}\n`);
    return 2;
  }
  // A dry run only reads the console's database; a deploy writes its audit there.
  let opened: ConsoleDatabase | null;
  try {
    opened = await openConsoleIfAny(config.home, values["dry-run"] ? "read" : "write", io.env);
  } catch (e) {
    io.err(`omniforge skill deploy: ${e instanceof ConsoleDbError ? e.message : errorLine(e)}\n`);
    return 1;
  }
  try {
    const out = await cliDeploy(config, positionals[0]!, values.scope as DeployTarget, {
      context,
      fromLayer: values.from as LayerName | undefined,
      force: values.force,
      dryRun: values["dry-run"],
      console: opened,
    });
    if (values.json) {
      io.out(JSON.stringify({ preview: out.preview, result: out.result ?? null, policyFrom: out.policyFrom, auditTo: out.auditTo }, null, 2) + "\n");
      return 0;
    }
    io.out(formatPreview(out.preview));
    if (out.result) io.out(`${out.result.message}\n`);
    else io.out("dry run: nothing was copied\n");
    return 0;
  } catch (e) {
    // DeployError messages are written for people; anything else is an unexpected file system failure.
    const known = e instanceof DeployError || e instanceof GovernanceError;
    const hint = e instanceof GovernanceError && /already exists/.test(e.message) ? " (use --force to replace it)" : "";
    io.err(`omniforge skill deploy: ${known ? "" : "failed: "}${(e as Error).message}${hint}\n`);
    return 1;
  } finally {
    await opened?.close();
  }
}
