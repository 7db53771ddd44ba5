import type { AuthedContext } from "../../trpc";
import { verifyChainAsync } from "../../../services/audit/verify";

/** Checks the whole chain (admins only: the result speaks for everyone's events). */
export async function verify({ ctx }: { ctx: AuthedContext }) {
  const started = Date.now();
  const result = await verifyChainAsync(ctx.db);
  return { ...result, ms: Date.now() - started };
}
