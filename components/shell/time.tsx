"use client";
// Every time the console shows (issue 41 item 10): in the viewer's own zone, with the exact UTC instant on hover and in
// the element's dateTime, so a person reads their own clock and can still match a log line or a colleague abroad.
// The server renders UTC (it cannot know the viewer's zone) and the browser switches to local after hydration.
import { useSyncExternalStore } from "react";

export type When = number | string | Date;

const asDate = (at: When) => (at instanceof Date ? at : new Date(at));

/** "2026-11-28 17:38:22 UTC": the hover text, and the text until the browser knows its zone. */
export function utcText(at: When): string {
  return `${asDate(at).toISOString().replace("T", " ").slice(0, 19)} UTC`;
}

const LOCAL = new Intl.DateTimeFormat(undefined, { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", second: "2-digit", timeZoneName: "short" });

/** The time in the viewer's zone with the zone's name, for sentences (a notice about a draft). */
export function localText(at: When): string {
  return LOCAL.format(asDate(at));
}

/** "3 min ago" up to a day, then the local date: for lists where recency matters more than the instant. */
function agoText(at: When, now: number): string {
  const s = Math.max(0, Math.round((now - asDate(at).getTime()) / 1000));
  if (s < 60) return "just now";
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  return asDate(at).toLocaleDateString();
}

const noSubscribe = () => () => {};

export function Time({ at, ago = false, className }: { at: When; ago?: boolean; className?: string }) {
  const inBrowser = useSyncExternalStore(
    noSubscribe,
    () => true,
    () => false,
  );
  const d = asDate(at);
  if (Number.isNaN(d.getTime())) return <span className={className}>—</span>;
  const text = !inBrowser ? utcText(d) : ago ? agoText(d, Date.now()) : localText(d);
  return (
    <time dateTime={d.toISOString()} title={utcText(d)} className={className}>
      {text}
    </time>
  );
}
