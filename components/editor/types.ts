import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "~/server/api/root";

type Out = inferRouterOutputs<AppRouter>["skill"];
export type LiveCheckResult = Out["check"];
export type SkillInfo = Out["info"];
export type VersionRow = Out["versions"][number];
type SaveOutcome = Out["save"];
/** What the frontmatter assist offers: the validator's field table and the tool names allowed-tools understands. */
export type Vocabulary = Out["vocabulary"];
export type { SkillRef } from "~/server/services/skills/location";
