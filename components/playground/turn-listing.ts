"use client";
// A turn's listing in full, when the person asks for it. A live turn's streamed event has everything; a history
// turn carries only the counts (ListingSummary, so playground.get stays small), and its text and names come from
// playground.turnListing, fetched once per turn and kept: a finished turn never changes.
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "~/components/providers/trpc";
import type { ListingInfo } from "~/server/runtime/agent/types";
import type { ListingSummary } from "~/server/services/playground/types";

export type ShownListing = ListingInfo | ListingSummary;

/** Where a history turn's listing is read: the session, the turn and, for a sub-agent's run, the run's id. */
export interface ListingSource {
  sessionId: string;
  turn: number;
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
