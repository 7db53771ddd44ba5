import type { AuthedContext } from "../../trpc";
import type { TAuditFilterInput } from "./list.schema";
import {
  autoBucket,
  countEvents,
  scriptRunsByExitStatus,
  timeSeries,
  topSkillsByActivation,
} from "../../../services/audit/queries";
import { resolveUserFilter } from "../../../services/audit/resolve";
import { eventsBySource } from "../../../services/audit/sources";
import { refusalCounts } from "../../../services/audit/refusals";
import { scopeFor } from "./scope";

/** Everything above the table in one round trip: the count and the charts. */
export async function summary({ ctx, input: raw }: { ctx: AuthedContext; input: TAuditFilterInput }) {
  const scope = await scopeFor(ctx.db, ctx.user);
  const input = await resolveUserFilter(ctx.db, raw);
  return {
    count: (await countEvents(ctx.db, input, scope)),
    series: (await timeSeries(ctx.db, input, scope, autoBucket(input))),
    topSkills: (await topSkillsByActivation(ctx.db, input, scope, 10)),
    // The Overview's refusals figure counts the same way (services/audit/refusals.ts).
    refusals: await refusalCounts(ctx.db, input, scope, 10),
    scriptRuns: (await scriptRunsByExitStatus(ctx.db, input, scope)),
    sources: (await eventsBySource(ctx.db, input, scope)),
    scope: scope.kind,
  };
}
