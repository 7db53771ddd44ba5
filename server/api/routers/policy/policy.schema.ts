import { z } from "zod";
import { POLICY_NAME_MAX_CHARS } from "../../../domain/limits";
import { LAYERS } from "../../../domain/vocabulary";

const name = z.string().trim().min(1).max(POLICY_NAME_MAX_CHARS);
const plugin = z.string().trim().min(1).max(128);
const layer = z.enum(LAYERS);

export const ZPolicyChange = z.discriminatedUnion("op", [
  z.object({ op: z.literal("block"), name }),
  z.object({ op: z.literal("unblock"), name }),
  z.object({ op: z.literal("disable"), name, layer, plugin: plugin.optional() }),
  z.object({ op: z.literal("enable"), name, layer, plugin: plugin.optional() }),
  z.object({ op: z.literal("setAllowlist"), names: z.array(name).max(10_000).nullable() }),
  z.object({ op: z.literal("setForbiddenPatterns"), patterns: z.array(z.string().max(200)).max(200) }),
  z.object({ op: z.literal("setRequireApproval"), scripts: z.boolean().optional(), project: z.boolean().optional(), sources: z.boolean().optional() }),
  z.object({ op: z.literal("setAdminsEditPersonal"), allow: z.boolean() }),
  z.object({ op: z.literal("setNameMustMatchFolder"), on: z.boolean() }),
  z.object({ op: z.literal("setAllowReservedNames"), allow: z.boolean() }),
]);
export type TPolicyChange = z.infer<typeof ZPolicyChange>;

export const ZReviewInput = z.object({ id: z.number().int().positive() });
export type TReviewInput = z.infer<typeof ZReviewInput>;

export const ZDecideInput = z.object({
  id: z.number().int().positive(),
  decision: z.enum(["approved", "rejected"]),
  comment: z.string().max(2000).default(""),
});
export type TDecideInput = z.infer<typeof ZDecideInput>;
