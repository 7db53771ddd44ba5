"use client";
// Git sources (admin): add a repository, see each source's pinned commit and how far behind its ref it is, move the
// pin (update, rollback) or remove it. The server does each step as `omniforge source` does and audits it with both
// commits; the URLs it returns never carry a password.
import { useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import type { FormEvent } from "react";
import { useTRPC } from "~/components/providers/trpc";
import { DataTable } from "~/components/shell/data-table";
import { ErrorLine, useListActions } from "~/components/shell/list-actions";
import { PublishState } from "./publish-state";
import { SourceReviews } from "./source-reviews";
import { count } from "~/server/domain/plural";

const short = (commit: string | null | undefined) => (commit ? commit.slice(0, 12) : "");

function behindText(s: { behind?: number | null; remoteError: string | null }): string {
  if (s.remoteError) return `unknown: ${s.remoteError}`;
  if (s.behind === undefined) return "checking…";
  if (s.behind === null) return "the ref no longer holds it (force-pushed?)";
  return s.behind === 0 ? "up to date" : `${count(s.behind, "commit")} behind`;
}

export function SourcesAdmin() {
  const trpc = useTRPC();
  // The local list first (fast), then the one that asks each repository how far behind it is.
  const local = useQuery(trpc.sources.list.queryOptions({ remote: false }));
  const remote = useQuery(trpc.sources.list.queryOptions({ remote: true }, { staleTime: 30_000 }));
  const rows = remote.data ?? local.data;
  // A new pin changes the skills every view lists.
  const { error, done, fail, clear } = useListActions(trpc.sources.pathKey(), trpc.skill.pathKey(), trpc.layers.pathKey(), trpc.policy.pathKey());
  const opts = { onSuccess: done, onError: fail };
  const add = useMutation(trpc.sources.add.mutationOptions(opts));
  const update = useMutation(trpc.sources.update.mutationOptions(opts));
  const rollback = useMutation(trpc.sources.rollback.mutationOptions(opts));
  const remove = useMutation(trpc.sources.remove.mutationOptions(opts));
  const busy = add.isPending || update.isPending || rollback.isPending || remove.isPending;

  const onAdd = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    clear();
    const form = e.currentTarget;
    const f = new FormData(form);
    const text = (k: string) => String(f.get(k) ?? "").trim();
    add.mutate(
      { name: text("name"), url: text("url"), ref: text("ref") || undefined, path: text("path") || undefined, layer: text("layer") === "plugin" ? "plugin" : "enterprise" },
      { onSuccess: () => form.reset() },
    );
  };

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="text-xl font-semibold">Sources</h1>
        <p className="text-sm">
          History in the audit log:{" "}
          <Link className="text-indigo-700 underline dark:text-indigo-300" href="/audit?type=source_updated&range=all">
            source updates
          </Link>
        </p>
      </div>
      <p className="muted text-sm">
        A source is a git repository whose skill folders feed the enterprise layer, or a plugin of the source&apos;s name. It serves its pinned commit
        until you update it; a push to the repository alone changes nothing agents see.
      </p>
      <form onSubmit={onAdd} className="card grid gap-3 sm:grid-cols-6" aria-label="Add source">
        <input className="input" name="name" placeholder="Name, e.g. org" aria-label="Source name" required maxLength={64} pattern="[A-Za-z0-9][A-Za-z0-9_\-]*" />
        <input className="input sm:col-span-2" name="url" placeholder="https://git.example.com/acme/skills.git" aria-label="Repository URL" required maxLength={2000} />
        <input className="input" name="ref" placeholder="Ref (default: HEAD)" aria-label="Ref" maxLength={200} />
        <input className="input" name="path" placeholder="Folder, e.g. skills" aria-label="Folder in the repository" maxLength={500} />
        <select className="input" name="layer" aria-label="Layer" defaultValue="enterprise">
          <option value="enterprise">enterprise layer</option>
          <option value="plugin">plugin of this name</option>
        </select>
        <button className="btn btn-primary justify-center sm:col-span-6 sm:justify-self-start" type="submit" disabled={busy}>
          {add.isPending ? "Fetching…" : "Add source"}
        </button>
      </form>
      <ErrorLine error={error} testId="sources-error" />
      {update.data && update.data.pending > 0 && (
        <p className="text-sm" role="status" data-testid="sources-notice">
          Source {update.data.name}: {count(update.data.pending, "changed skill")} to review below before it moves to{" "}
          <code>{update.data.to?.slice(0, 12)}</code>.
        </p>
      )}
      <SourceReviews />
      <DataTable
        testId="sources-table"
        columns={["Name", "Repository", "Ref", "Folder", "Commit", "Skills", "Layer", "Behind", ""]}
        note={local.error ? local.error.message : !rows ? "Loading…" : rows.length === 0 ? "No sources yet." : null}
      >
        {rows?.map((s) => (
          <tr key={s.name} data-testid={`source-row-${s.name}`}>
            <td className="font-medium">{s.name}</td>
            <td className="break-all">{s.url}</td>
            <td>{s.ref}</td>
            <td>{s.path || "(top)"}</td>
            <td>
              <code title={s.commit}>{short(s.commit)}</code>
              {s.previous && <span className="muted block text-xs">before: {short(s.previous)}</span>}
            </td>
            <td>{s.skills}</td>
            <td>{s.layer}</td>
            <td data-testid={`source-behind-${s.name}`}>{remote.data ? behindText(s) : "checking…"}</td>
            <td className="space-x-1 whitespace-nowrap">
              <button className="btn" type="button" disabled={busy} onClick={() => update.mutate({ name: s.name })} aria-label={`Update ${s.name}`}>
                Update
              </button>
              <button className="btn" type="button" disabled={busy || !s.previous} onClick={() => rollback.mutate({ name: s.name })} aria-label={`Roll back ${s.name}`}>
                Roll back
              </button>
              <button
                className="btn btn-danger"
                type="button"
                disabled={busy}
                onClick={() => window.confirm(`Remove source ${s.name}? Its skills leave their layer.`) && remove.mutate({ name: s.name })}
                aria-label={`Remove ${s.name}`}
              >
                Remove
              </button>
            </td>
          </tr>
        ))}
      </DataTable>
      <PublishState />
    </div>
  );
}
