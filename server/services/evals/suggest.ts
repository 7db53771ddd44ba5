// "Suggest a better description" in the console: the runtime's loop over the user's catalog with a model provider,
// and applying the chosen description as a normal versioned save of SKILL.md (only on the author's click).
import fs from "node:fs";
import path from "node:path";
import type { DisclosureMode } from "../../domain/vocabulary";
import { suggestDescription, type Suggestion } from "../../runtime/evals";
import { FrontmatterError, setFrontmatterField } from "../../runtime/skill";
import { readSkillFile, saveFile, type SkillRef, type SkillsContext } from "../skills";
import { existingSkillDir } from "../skills/edit";
import { SkillServiceError } from "../skills/errors";
import { prepareRun } from "./runs";
import { casesOf, readTriggerSet } from "./sets";
import { processEnv } from "../../../env";

/** Fewer queries than this cannot be split into train and test usefully. */
export const MIN_SUGGEST_CASES = 5;

export interface SuggestInput {
  ref: SkillRef;
  provider: string;
  model?: string;
  mode: DisclosureMode;
  iterations?: number;
  runs?: number;
}

export async function suggestForSkill(ctx: SkillsContext, input: SuggestInput, env: Record<string, string | undefined> = processEnv()): Promise<Suggestion & { skillDigest: string }> {
  if (ctx.actor.role === "viewer") throw new SkillServiceError("FORBIDDEN", "Viewers can read trigger tests but not run them.");
  const { ref, dir } = existingSkillDir(ctx, input.ref, "read");
  const cases = casesOf(await readTriggerSet(ctx, ref));
  if (cases.length < MIN_SUGGEST_CASES) throw new SkillServiceError("BAD_REQUEST", `A suggestion needs at least ${MIN_SUGGEST_CASES} saved queries (some held out to judge it); this set has ${cases.length}.`);
  const { provider, index, rctx, entry, skillMd } = await prepareRun(ctx, { ...input, ref }, dir, env);
  fs.mkdirSync(ctx.dataHome.scratchRoot, { recursive: true, mode: 0o700 });
  const scratchDir = fs.mkdtempSync(path.join(ctx.dataHome.scratchRoot, "suggest-"));
  try {
    const s = await suggestDescription({ skill: entry.name, cases, skills: { index, context: rctx }, provider, mode: input.mode, ...(input.iterations ? { iterations: input.iterations } : {}), ...(input.runs ? { runs: input.runs } : {}), scratchDir });
    return { ...s, skillDigest: skillMd.digest };
  } finally {
    fs.rmSync(scratchDir, { recursive: true, force: true });
  }
}

/** Writes the description into SKILL.md's frontmatter as a normal save (a version, skill_saved), if unchanged since. */
export function applyDescription(ctx: SkillsContext, input: { ref: SkillRef; description: string; baseDigest: string }) {
  const file = readSkillFile(ctx, input.ref, "SKILL.md");
  if (file.text === null) throw new SkillServiceError("BAD_REQUEST", "SKILL.md is not text.");
  let text: string;
  try {
    text = setFrontmatterField(file.text, "description", input.description);
  } catch (e) {
    if (e instanceof FrontmatterError) throw new SkillServiceError("BAD_REQUEST", e.message);
    throw e;
  }
  return saveFile(ctx, { ref: input.ref, path: "SKILL.md", text, baseDigest: input.baseDigest, message: "description suggested by trigger tests" });
}
