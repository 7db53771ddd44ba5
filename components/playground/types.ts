import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "~/server/api/root";

type Out = inferRouterOutputs<AppRouter>["playground"];
export type SessionView = Out["get"];
export type Message = SessionView["messages"][number];
/** One event of a live turn, as the follow subscription yields it: the agent's events and the playground's notes. */
export type StreamEvent = (Out["follow"] extends AsyncIterable<infer Item extends { event: unknown }> ? Item : never)["event"];
/** One event of a turn read back from the history (listings and long tool outputs summarised). */
type HistoryEvent = NonNullable<Message["record"]>["events"][number];
/** What the chat renders: a live turn's events (everything) or a history turn's. */
export type ShownEvent = StreamEvent | HistoryEvent;
/** What the playground adds to a turn's stream: sandbox status, a script waiting for a free slot. */
export type PlaygroundNote = Extract<StreamEvent, { type: "sandbox" | "script_queued" | "script_waited" }>;
/** A history turn's listing: the counts, the strategy and why, without the text and names. */
export type ListingSummary = Extract<HistoryEvent, { type: "run_started" }>["listing"];
/** A history turn's tool result whose long output is left out (its length instead). */
export type ToolResultSummary = Extract<HistoryEvent, { outputChars: number }>;
