"use client";
// The marketplace publication as admins need to see it before they publish again: when and where the catalog was
// last published (`omniforge publish marketplace`), the commit it made, each plugin's version, and which skills the
// catalog now serves differently. The server computes all of it (sources.publishState); this only shows it.
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "~/components/providers/trpc";
import { count, plural } from "~/server/domain/plural";

const names = (xs: { plugin: string; skill: string }[]) => xs.map((x) => `${x.skill} (${x.plugin})`).join(", ");

export function PublishState() {
  const trpc = useTRPC();
  const q = useQuery(trpc.sources.publishState.queryOptions());
  const command = "omniforge publish marketplace --out DIR";
  return (
    <section className="card space-y-2 text-sm" aria-label="Marketplace" data-testid="publish-state">
      <h2 className="font-semibold">Claude Code marketplace</h2>
      {q.error ? (
        <p role="alert">{q.error.message}</p>
      ) : !q.data ? (
        <p className="muted">Loading…</p>
      ) : !q.data.last ? (
        <p>
          Not published from this console yet. <code>{command}</code> writes what the catalog serves as a marketplace, with the managed-settings.json
          that makes every Claude Code install it.
        </p>
      ) : (
        <>
          <p data-testid="publish-last">
            Published <time dateTime={q.data.last.at} title={q.data.last.at}>{new Date(q.data.last.at).toLocaleString()}</time> to{" "}
            <code className="break-all">{q.data.last.out}</code>
            {q.data.last.commit ? (
              <>
                {" "}
                (commit <code>{q.data.last.commit}</code>)
              </>
            ) : null}
            : {q.data.last.plugins.map((p) => `${p.name} ${p.version} (${count(p.skills, "skill")})`).join(", ")}.
          </p>
          {q.data.since && (
            <p data-testid="publish-since">
              {q.data.since.changed.length + q.data.since.added.length + q.data.since.removed.length === 0
                ? "Nothing changed since: the marketplace has what the catalog serves."
                : [
                    q.data.since.changed.length ? `${count(q.data.since.changed.length, "skill")} changed since: ${names(q.data.since.changed)}` : "",
                    q.data.since.added.length ? `${count(q.data.since.added.length, "new skill")}: ${names(q.data.since.added)}` : "",
                    q.data.since.removed.length ? `${count(q.data.since.removed.length, "skill")} no longer served: ${names(q.data.since.removed)}` : "",
                  ]
                    .filter(Boolean)
                    .join(". ") + `. Publish again to pass ${plural(q.data.since.changed.length + q.data.since.added.length + q.data.since.removed.length, "it", "them")} on.`}
            </p>
          )}
        </>
      )}
    </section>
  );
}
