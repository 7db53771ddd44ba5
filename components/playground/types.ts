import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "~/server/api/root";

type Out = inferRouterOutputs<AppRouter>["playground"];
export type SessionView = Out["get"];
export type Message = SessionView["messages"][number];
