import { z } from "zod";
import { DISCLOSURE_MODES } from "../../../runtime/agent";

const scopeValue = z.string().trim().max(128).optional();
export const ZMode = z.enum(DISCLOSURE_MODES);
const sessionId = z.string().uuid();

export const ZCreateInput = z.object({
  title: z.string().max(200).optional(),
  provider: z.enum(["offline", "openai", "anthropic"]).default("offline"),
  model: z.string().max(128).optional(),
  mode: ZMode.default("tool"),
  environment: scopeValue,
  agent: scopeValue,
  tenant: scopeValue,
  skills: z.array(z.string().min(1).max(200)).max(500).optional(),
});
export type TCreateInput = z.infer<typeof ZCreateInput>;

export const ZSessionInput = z.object({ sessionId });
export const ZRenameInput = z.object({ sessionId, title: z.string().min(1).max(200) });
export const ZSendInput = z.object({ sessionId, request: z.string().min(1).max(20_000), mode: ZMode.optional() });
export const ZReplayInput = z.object({ sessionId, turn: z.number().int().min(1), mode: ZMode });
export const ZFollowInput = z.object({ sessionId, from: z.number().int().min(0).default(0) });
export const ZListingInput = z.object({ sessionId, mode: ZMode.optional(), request: z.string().max(20_000).optional() });
export const ZTurnListingInput = z.object({ sessionId, turn: z.number().int().min(1), runId: z.string().max(64).optional() });
export const ZToolOutputInput = z.object({ sessionId, turn: z.number().int().min(1), callId: z.string().min(1).max(200), depth: z.number().int().min(0).max(50).default(0) });
