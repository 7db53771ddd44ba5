import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "~/server/api/root";

type Out = inferRouterOutputs<AppRouter>["skill"];
export type LiveCheckResult = Out["check"];
export type SkillInfo = Out["info"];
export type VersionRow = Out["versions"][number];
type SaveOutcome = Out["save"];
/** What the frontmatter assist offers: the validator's field table and the tool names allowed-tools understands. */
export type Vocabulary = Out["vocabulary"];
/** One skill definition (layer, folder, and plugin, owner or project folder when needed), as the API takes it. */
export type SkillRef = inferRouterInputs<AppRouter>["skill"]["info"]["ref"];
