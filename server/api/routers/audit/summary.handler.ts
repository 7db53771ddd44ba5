import type { AuthedContext } from "../../trpc";
import type { TAuditFilterInput } from "./list.schema";
import {
  autoBucket,
  countEvents,
  refusalsBySkillAndTool,
  scriptRunsByExitStatus,
  timeSeries,
  topSkillsByActivation,
} from "../../../services/audit/queries";
import { resolveUserFilter } from "../../../services/audit/resolve";
import { eventsBySource } from "../../../services/audit/sources";
import { scopeFor } from "./scope";

/** Everything above the table in one round trip: the count and the charts. */
export async function summary({ ctx, input: raw }: { ctx: AuthedContext; input: TAuditFilterInput }) {
  const scope = await scopeFor(ctx.db, ctx.user);
  const input = resolveUserFilter(ctx.db, raw);
  return {
    count: countEvents(ctx.db, input, scope),
    series: timeSeries(ctx.db, input, scope, autoBucket(input)),
    topSkills: topSkillsByActivation(ctx.db, input, scope, 10),
    refusals: refusalsBySkillAndTool(ctx.db, input, scope, 10),
    scriptRuns: scriptRunsByExitStatus(ctx.db, input, scope),
    sources: eventsBySource(ctx.db, input, scope),
    scope: scope.kind,
  };
}
