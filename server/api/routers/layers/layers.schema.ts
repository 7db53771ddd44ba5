import { z } from "zod";

const scopeValue = z.string().trim().max(128).optional();

export const ZWhatIf = z.object({
  userId: z.string().max(128).optional(),
  environment: scopeValue,
  agent: scopeValue,
  tenant: scopeValue,
});
export type TWhatIf = z.infer<typeof ZWhatIf>;

export const ZExplainInput = ZWhatIf.extend({ name: z.string().min(1).max(128) });
export type TExplainInput = z.infer<typeof ZExplainInput>;

export const ZServedInput = ZExplainInput.extend({ id: z.string().min(1).max(4096) });
export type TServedInput = z.infer<typeof ZServedInput>;

export const ZDefinitionInput = z.object({ userId: z.string().max(128).optional(), id: z.string().min(1).max(4096) });
export type TDefinitionInput = z.infer<typeof ZDefinitionInput>;

export const ZDeployPreviewInput = z.object({
  name: z.string().min(1).max(128),
  fromId: z.string().max(4096).optional(),
  target: z.enum(["enterprise", "personal", "project"]),
});
export type TDeployPreviewInput = z.infer<typeof ZDeployPreviewInput>;

export const ZDeployInput = ZDeployPreviewInput.extend({
  replace: z.boolean().default(false),
  expectDigest: z.string().max(128).optional(),
  /** The person chose to deploy despite the high doctor findings the preview showed. */
  acceptFindings: z.boolean().default(false),
});
export type TDeployInput = z.infer<typeof ZDeployInput>;
