// Maps the governance services' errors to tRPC codes (shared by the layers and policy routers).
import { TRPCError } from "@trpc/server";
import { GovernanceError } from "../../../services/governance/errors";

export function asTRPC(e: unknown): never {
  if (e instanceof GovernanceError) throw new TRPCError({ code: e.code, message: e.message });
  throw e;
}

/** Runs a handler body, turning GovernanceError into the matching TRPCError. */
export async function guarded<T>(fn: () => T | Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    asTRPC(e);
  }
}
