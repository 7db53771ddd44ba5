import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "~/server/api/root";

type Out = inferRouterOutputs<AppRouter>["evals"];
export type EvalRun = Out["get"];
export type EvalRunSummary = Out["list"][number];
export type QueryRow = EvalRun["results"][number];
export interface EditableCase {
  /** Stable key for React while rows are edited. */
  key: number;
  query: string;
  should_trigger: boolean;
}
export type { SkillRef } from "~/components/editor/types";
