"use client";
// How the listing was fitted to its budget, never silently: which skills got a description, which only a name,
// which were shortened or left out (the agent finds those with its search tool), and the sentence saying why.
// A history turn's names are fetched when the person opens one of the lists ("Loading…" meanwhile).
import { useState } from "react";
import type { ListingInfo } from "~/server/runtime/agent/types";
import { isSummary, useFullListing, type ListingSource, type ShownListing } from "./turn-details";

function Names({ label, count, names, error, onOpen, testId }: { label: string; count: number; names: string[] | null; error: string | null; onOpen: () => void; testId: string }) {
  if (!count) return null;
  return (
    <details className="text-xs" data-testid={testId} onToggle={(e) => e.currentTarget.open && onOpen()}>
      <summary className="cursor-pointer">
        {label} ({count})
      </summary>
      <p className="mt-1 break-words font-mono">{names ? names.join(", ") || "(not recorded for this turn)" : error ? `Could not load the names: ${error}` : "Loading…"}</p>
    </details>
  );
}

/** Turns recorded before request-ranked listings carry only the counts and the left-out names. */
const namesOf = (l: ListingInfo | null) => ({
  described: l ? (l.described ?? []) : null,
  nameOnly: l ? (l.nameOnly ?? []) : null,
  shortened: l ? (l.shortenedNames ?? []) : null,
  omitted: l ? (l.omittedNames ?? []) : null,
});

/** The four name lists; `source` says where a history turn's names are read when one is opened. */
export function ListingNames({ listing, source }: { listing: ShownListing; source?: ListingSource | undefined }) {
  const [wanted, setWanted] = useState(false);
  const { full, error } = useFullListing(listing, source, wanted);
  const names = namesOf(full);
  const open = () => setWanted(true);
  const counts = isSummary(listing) ? { described: listing.describedCount, nameOnly: listing.nameOnlyCount } : { described: listing.described?.length ?? 0, nameOnly: listing.nameOnly?.length ?? 0 };
  return (
    <>
      <Names label="With description" count={counts.described} names={names.described} error={error} onOpen={open} testId="listing-described" />
      <Names label="Name only" count={counts.nameOnly} names={names.nameOnly} error={error} onOpen={open} testId="listing-name-only" />
      <Names label="Shortened" count={listing.shortened} names={names.shortened} error={error} onOpen={open} testId="listing-shortened" />
      <Names label="Left out (found with the search tool)" count={listing.omitted} names={names.omitted} error={error} onOpen={open} testId="listing-omitted" />
    </>
  );
}

export function ListingDetails({ listing, source }: { listing: ShownListing; source?: ListingSource | undefined }) {
  const described = isSummary(listing) ? listing.describedCount : listing.described?.length || listing.listed;
  const nameOnly = isSummary(listing) ? listing.nameOnlyCount : (listing.nameOnly?.length ?? 0);
  return (
    <div className="space-y-1" data-testid="listing-details">
      {listing.why && <p className="text-xs" data-testid="listing-why">{listing.why}</p>}
      <p className="muted text-xs">
        {listing.strategy === "ranked" ? "Ranked for the request: " : ""}
        {described} with description, {nameOnly} by name only, {listing.shortened} shortened, {listing.omitted} left out of {listing.total}
      </p>
      <ListingNames listing={listing} source={source} />
    </div>
  );
}
