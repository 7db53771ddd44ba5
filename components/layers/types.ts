// What the layers page shows, as the API types it (the UI reaches the server only through tRPC).
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "~/server/api/root";

type Out = inferRouterOutputs<AppRouter>["layers"];
/** One name's row of the matrix: its active definition and a cell per layer. */
export type MatrixRow = Out["matrix"]["rows"][number];
/** Why a name resolves as it does: every definition in precedence order, with its state and reason. */
export type Explanation = Out["explain"];
/** One definition of the chain, with the decision on its version when it waits for approval. */
export type ChainLink = Explanation["chain"][number];
/** One of the deploy source's doctor findings, as the preview lists them. */
export type DeployFinding = Out["deployPreview"]["findings"][number];
