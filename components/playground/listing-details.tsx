"use client";
// How the listing was fitted to its budget, never silently: which skills got a description, which only a name,
// which were shortened or left out (the agent finds those with its search tool), and the sentence saying why.
import type { ListingInfo } from "~/server/runtime/agent/types";

/** Turns recorded before request-ranked listings carry only the counts; everything else is optional here. */
type Shown = Pick<ListingInfo, "listed" | "total" | "shortened" | "omitted" | "omittedNames"> & Partial<Pick<ListingInfo, "strategy" | "described" | "nameOnly" | "shortenedNames" | "why">>;

function Names({ label, names, testId }: { label: string; names: string[]; testId: string }) {
  if (!names.length) return null;
  return (
    <details className="text-xs" data-testid={testId}>
      <summary className="cursor-pointer">
        {label} ({names.length})
      </summary>
      <p className="mt-1 break-words font-mono">{names.join(", ")}</p>
    </details>
  );
}

export function ListingDetails({ listing }: { listing: Shown }) {
  const described = listing.described ?? [];
  const nameOnly = listing.nameOnly ?? [];
  return (
    <div className="space-y-1" data-testid="listing-details">
      {listing.why && <p className="text-xs" data-testid="listing-why">{listing.why}</p>}
      <p className="muted text-xs">
        {listing.strategy === "ranked" ? "Ranked for the request: " : ""}
        {described.length || listing.listed} with description, {nameOnly.length} by name only, {listing.shortened} shortened, {listing.omitted} left out of {listing.total}
      </p>
      <Names label="With description" names={described} testId="listing-described" />
      <Names label="Name only" names={nameOnly} testId="listing-name-only" />
      <Names label="Shortened" names={listing.shortenedNames ?? []} testId="listing-shortened" />
      <Names label="Left out (found with the search tool)" names={listing.omittedNames} testId="listing-omitted" />
    </div>
  );
}
