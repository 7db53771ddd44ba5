"use client";
// "Which skill serves this request?": the agent's own ranking (the same one the listing, the search tool and the
// offline provider use) over the skills this user's agents can use now. Hover a result for why it ranks there.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { useTRPC } from "~/components/providers/trpc";
import { count } from "~/server/domain/plural";
import { LAYER_LABEL } from "~/server/domain/vocabulary";
import { editorHref } from "./links";
import { useDebounced } from "./use-debounced";

export function SkillFinder() {
  const trpc = useTRPC();
  const [request, setRequest] = useState("");
  const q = useDebounced(request.trim(), 250);
  const found = useQuery({ ...trpc.skill.search.queryOptions({ q, limit: 8 }), enabled: q.length > 0, placeholderData: keepPreviousData, staleTime: 2000 });
  const data = q ? found.data : undefined;
  return (
    <div className="card space-y-2" data-testid="skill-finder">
      <label className="block text-sm">
        <span className="muted text-xs">Find the skill for a request (ranked as the agent ranks it)</span>
        <input
          className="input"
          type="search"
          aria-label="Find the skill for a request"
          placeholder="e.g. turn this spreadsheet into a chart"
          value={request}
          onChange={(e) => setRequest(e.target.value)}
        />
      </label>
      {found.error && q && <p className="error-text">{found.error.message}</p>}
      {data && (
        <div className="space-y-1 text-sm">
          {data.notes.map((n) => (
            <p key={n} className="text-xs text-amber-700 dark:text-amber-300" data-testid="finder-note">
              {n}
            </p>
          ))}
          {data.abstain && (
            <p className="text-xs text-amber-700 dark:text-amber-300" data-testid="finder-abstain">
              No skill clearly serves this request: {data.reason}
              {data.hits.length ? ". The closest:" : "."}
            </p>
          )}
          <ol className="space-y-1" data-testid="finder-results">
            {data.hits.map((h, i) => (
              <li key={h.key} className="flex flex-wrap items-baseline gap-2" title={h.why} data-testid={`finder-hit-${h.name}`}>
                <span className="muted w-5 text-right text-xs">{i + 1}.</span>
                <Link className="font-medium text-indigo-700 hover:underline dark:text-indigo-300" href={editorHref(h.ref)}>
                  {h.name}
                </Link>
                <span className="badge bg-indigo-50 text-indigo-800 dark:bg-indigo-950/60 dark:text-indigo-200">
                  {LAYER_LABEL[h.layer]}
                  {h.plugin ? ` · ${h.plugin}` : ""}
                </span>
                <span className="muted text-xs">score {h.score}</span>
                <span className="muted line-clamp-1 min-w-0 flex-1 text-xs">{h.description}</span>
              </li>
            ))}
          </ol>
          <p className="muted text-xs">
            {count(data.searched, "usable skill")} ranked; hover a result for why it ranks there.
          </p>
        </div>
      )}
    </div>
  );
}
