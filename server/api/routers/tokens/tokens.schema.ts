import { z } from "zod";
import { TENANT_NAME_MAX, TENANTS_PER_USER_MAX } from "../../../domain/tenants";
import { TOKEN_MAX_EXPIRY_DAYS, TOKEN_SCOPES } from "../../../domain/tokens";

export const ZCreateTokenInput = z.object({
  name: z.string().trim().min(1, "Give the token a name.").max(80),
  scopes: z.array(z.enum(TOKEN_SCOPES)).min(1, "Pick at least one scope."),
  expiresInDays: z.number().int().min(1).max(TOKEN_MAX_EXPIRY_DAYS),
  /** Another user's id or "machine": administrators only (the service decides). */
  forUserId: z.string().min(1).max(128).optional(),
  /** The tenants it acts for (at most its owner's); absent: all of the owner's. */
  tenants: z.array(z.string().max(TENANT_NAME_MAX)).max(TENANTS_PER_USER_MAX).optional(),
});

export const ZListTokensInput = z.object({ all: z.boolean().optional() }).optional();
export const ZRevokeTokenInput = z.object({ id: z.string().min(1).max(128) });
export const ZDeploymentsInput = z.object({ name: z.string().min(1).max(128) });
