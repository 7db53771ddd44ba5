import { z } from "zod";
import { DISCLOSURE_MODES } from "../../../domain/vocabulary";
import { MAX_CASES, MAX_ITERATIONS, MAX_QUERY_CHARS, MAX_RUNS } from "../../../runtime/evals";
import { ZSkillRef } from "../skill/skill.schema";

export const ZCase = z.object({ query: z.string().trim().min(1, "A query needs text.").max(MAX_QUERY_CHARS), should_trigger: z.boolean() });
export const ZCases = z.array(ZCase).max(MAX_CASES);

export const ZRefInput = z.object({ ref: ZSkillRef });
export const ZSaveSetInput = z.object({ ref: ZSkillRef, cases: ZCases, baseDigest: z.string().regex(/^[0-9a-f]{64}$/).nullable() });
export const ZParseSetInput = z.object({ text: z.string().max(2 * 1024 * 1024) });
// Which skill is tested, by which provider and model, in which mode and how often: running the trigger tests
// and suggesting a better description from them take the same settings.
const ZRunSettings = z.object({
  ref: ZSkillRef,
  provider: z.enum(["offline", "openai", "anthropic"]),
  model: z.string().max(128).optional(),
  mode: z.enum(DISCLOSURE_MODES),
  runs: z.number().int().min(1).max(MAX_RUNS).optional(),
});
export const ZStartInput = ZRunSettings.extend({
  threshold: z.number().gt(0).max(1).optional(),
  cases: ZCases.optional(),
});
export const ZRunInput = z.object({ id: z.number().int().positive() });

export const ZSuggestInput = ZRunSettings.extend({
  iterations: z.number().int().min(1).max(MAX_ITERATIONS).optional(),
});
export const ZApplyDescriptionInput = z.object({ ref: ZSkillRef, description: z.string().trim().min(1).max(1024), baseDigest: z.string().regex(/^[0-9a-f]{64}$/) });
