// What the policy pages send and show, as the API types them (the UI reaches the server only through tRPC).
import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "~/server/api/root";

/** One edit of the policy: the policy.change mutation's input. */
export type PolicyChange = inferRouterInputs<AppRouter>["policy"]["change"];
/** One row of the approvals queue. */
export type ApprovalItem = inferRouterOutputs<AppRouter>["policy"]["approvals"]["items"][number];
