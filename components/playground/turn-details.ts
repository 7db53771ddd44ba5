"use client";
// What a history turn shows only on demand, read when the person opens it. A live turn's streamed events have
// everything; a history turn's listing carries only the counts (ListingSummary) and a long tool output only its
// length (so playground.get stays small): playground.turnListing and playground.toolOutput give them, each read
// once and kept, as a finished turn never changes.
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "~/components/providers/trpc";
import type { AgentEvent, ListingInfo } from "~/server/runtime/agent/types";
import type { ListingSummary, ToolResultSummary } from "./types";

export type ShownListing = ListingInfo | ListingSummary;

/** The history turn a detail is read from. */
export interface TurnSource {
  sessionId: string;
  turn: number;
}

/** Where a history turn's listing is read: the turn and, for a sub-agent's run, the run's id. */
export interface ListingSource extends TurnSource {
  runId?: string;
}

export const isSummary = (l: ShownListing): l is ListingSummary => "detailsOmitted" in l;

export const turnListingInput = (s: ListingSource) => ({ sessionId: s.sessionId, turn: s.turn, ...(s.runId ? { runId: s.runId } : {}) });

/** The full listing: at once for a live turn, fetched once `wanted` for a history turn (null until it arrives). */
export function useFullListing(listing: ShownListing | null, source: ListingSource | undefined, wanted: boolean): { full: ListingInfo | null; error: string | null } {
  const trpc = useTRPC();
  const summary = listing !== null && isSummary(listing);
  const q = useQuery({
    ...trpc.playground.turnListing.queryOptions(turnListingInput(source ?? { sessionId: "", turn: 1 })),
    enabled: summary && wanted && !!source,
    staleTime: Infinity,
  });
  if (!summary) return { full: listing as ListingInfo | null, error: null };
  return { full: q.data ?? null, error: q.error ? q.error.message : null };
}

type ShownToolResult = Extract<AgentEvent, { type: "tool_result" }> | ToolResultSummary;

/** A tool call's output: at once when the event has it, fetched once `wanted` for a history turn's long one. */
export function useToolOutput(result: ShownToolResult | undefined, source: TurnSource | undefined, wanted: boolean): { output: string | null; error: string | null } {
  const trpc = useTRPC();
  const omitted = !!result && !("output" in result);
  const q = useQuery({
    ...trpc.playground.toolOutput.queryOptions({ sessionId: source?.sessionId ?? "", turn: source?.turn ?? 1, callId: result?.callId ?? "", depth: result?.depth ?? 0 }),
    enabled: omitted && wanted && !!source,
    staleTime: Infinity,
  });
  if (!result) return { output: null, error: null };
  if ("output" in result) return { output: result.output, error: null };
  return { output: q.data?.output ?? null, error: q.error ? q.error.message : null };
}
