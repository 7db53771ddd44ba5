"use client";
// The skills list: every definition the user can see across the layers, searched on the server as you type
// (debounced), filtered by layer and status, sorted, and paged (50 rows a page, fast with thousands of skills).
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { useState } from "react";
import { useTRPC } from "~/components/providers/trpc";
import { Options } from "~/components/shell/options";
import { OtherUserOptions } from "~/components/users/other-user-options";
import { CreateSkill } from "./create-skill";
import { ImportSkill } from "./import-skill";
import { SkillFinder } from "./skill-finder";
import { LAYER_LABEL, LAYERS, SKILL_STATE_LABEL, SKILL_STATES as STATUSES } from "~/server/domain/vocabulary";
import { catalogSize } from "./catalog-size";
import { editorHref } from "./links";
import { ProvenanceLine } from "~/components/sources/provenance";
import { LENIENT, stateClass, stateLabel } from "./skill-state";
import { useDebounced } from "./use-debounced";
import { DataTable } from "~/components/shell/data-table";
import { ProblemCount } from "./problem-count";
import { Time } from "~/components/shell/time";

const PAGE = 50;
type Sort = "name" | "layer" | "status" | "changed";

const oneOf = <T extends string>(values: readonly T[], v: string | null): T | "" => (values as readonly string[]).includes(v ?? "") ? (v as T) : "";

export function SkillsList({ canCreate, me, isAdmin = false }: { canCreate: boolean; me?: string; isAdmin?: boolean }) {
  const trpc = useTRPC();
  const params = useSearchParams();
  // Administrators review a user's personal skills (read-only, each open audited): ?owner=<user id>.
  const [owner, setOwner] = useState(isAdmin ? (params.get("owner") ?? "") : "");
  const users = useQuery(trpc.user.list.queryOptions(undefined, { enabled: isAdmin, staleTime: 60_000 }));
  const [q, setQ] = useState("");
  // The overview links here with ?status= or ?layer= (its "invalid" figure opens the invalid skills).
  const [layer, setLayer] = useState<(typeof LAYERS)[number] | "">(() => oneOf(LAYERS, params.get("layer")));
  const [status, setStatus] = useState<(typeof STATUSES)[number] | "">(() => oneOf(STATUSES, params.get("status")));
  const [tag, setTag] = useState("");
  // The overview's "with errors" figure links here with ?problems=error.
  const [errorsOnly, setErrorsOnly] = useState(params.get("problems") === "error");
  const [sort, setSort] = useState<Sort>("name");
  const [dir, setDir] = useState<"asc" | "desc">("asc");
  const [page, setPage] = useState(0);
  const [panel, setPanel] = useState<"create" | "import" | null>(null);
  const query = useDebounced(q, 200);
  const list = useQuery(
    trpc.skill.list.queryOptions(
      { q: query || undefined, owner: owner || undefined, layers: layer ? [layer] : undefined, statuses: status ? [status] : undefined, tag: tag || undefined, ...(errorsOnly && !owner ? { problems: "error" as const } : {}), sort, dir, offset: page * PAGE, limit: PAGE },
      { placeholderData: keepPreviousData, staleTime: 2000 },
    ),
  );
  // Each row's problem count and worst severity, from the one problem list (your own catalog's rows).
  const problems = useQuery(trpc.doctor.problems.queryOptions(undefined, { staleTime: 30_000, enabled: !owner }));
  const total = list.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE));
  const deleted = params.get("deleted");

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-2">
        <h1 className="text-xl font-semibold">Skills</h1>
        <span className="muted text-sm" data-testid="skills-total">
          {list.data ? catalogSize(list.data.names, total) : ""}
        </span>
        <div className="ml-auto flex gap-2">
          <Link className="btn" href="/skills/deleted">
            Deleted skills
          </Link>
          {canCreate && (
            <>
              <button className="btn" onClick={() => setPanel(panel === "import" ? null : "import")}>
                Import .zip
              </button>
              <button className="btn btn-primary" onClick={() => setPanel(panel === "create" ? null : "create")}>
                New skill
              </button>
            </>
          )}
        </div>
      </div>
      {deleted && (
        <p className="rounded-md border border-emerald-300 bg-emerald-50 px-3 py-2 text-sm text-emerald-800 dark:border-emerald-800 dark:bg-emerald-950/50 dark:text-emerald-200">
          Deleted {deleted}. It can be restored from <Link className="underline" href="/skills/deleted">deleted skills</Link>.
        </p>
      )}
      {panel === "create" && <CreateSkill onClose={() => setPanel(null)} />}
      {panel === "import" && <ImportSkill onClose={() => setPanel(null)} />}
      <SkillFinder />
      <div className="card flex flex-wrap items-end gap-3">
        <label className="min-w-64 flex-1 text-sm">
          <span className="muted text-xs">Search name, description, tags and body</span>
          <input
            className="input"
            type="search"
            aria-label="Search skills"
            placeholder="e.g. pdf"
            value={q}
            onChange={(e) => {
              setQ(e.target.value);
              setPage(0);
            }}
          />
        </label>
        {isAdmin && (
          <label className="text-sm">
            <span className="muted text-xs">Personal skills of</span>
            <select className="input" aria-label="Personal skills of" value={owner} onChange={(e) => (setOwner(e.target.value), setPage(0))}>
              <option value="">me (my whole catalog)</option>
              <OtherUserOptions users={users.data} me={me} />
            </select>
          </label>
        )}
        <CountedFilter label="Layer" any="All layers" value={layer} values={LAYERS} labels={LAYER_LABEL} counts={list.data?.counts.layers} onChange={(v) => (setLayer(v), setPage(0))} />
        <CountedFilter label="Status" any="Any status" value={status} values={STATUSES} labels={SKILL_STATE_LABEL} counts={list.data?.counts.statuses} onChange={(v) => (setStatus(v), setPage(0))} />
        {!owner && (
          <label className="text-sm">
            <span className="muted text-xs">Problems</span>
            <select className="input" aria-label="Problems filter" value={errorsOnly ? "error" : ""} onChange={(e) => (setErrorsOnly(e.target.value === "error"), setPage(0))}>
              <option value="">Any</option>
              <option value="error">With errors</option>
            </select>
          </label>
        )}
        <label className="text-sm">
          <span className="muted text-xs">Tag</span>
          <select className="input" aria-label="Tag filter" value={tag} onChange={(e) => (setTag(e.target.value), setPage(0))}>
            <option value="">Any tag</option>
            <Options values={[...new Set([...(list.data?.tags ?? []), ...(tag ? [tag] : [])])].sort()} />
          </select>
        </label>
        <label className="text-sm">
          <span className="muted text-xs">Sort</span>
          <select className="input" aria-label="Sort" value={sort} onChange={(e) => setSort(e.target.value as Sort)}>
            <option value="name">Name</option>
            <option value="layer">Layer</option>
            <option value="status">Status</option>
            <option value="changed">Last change</option>
          </select>
        </label>
        <button className="btn" aria-label="Sort direction" onClick={() => setDir(dir === "asc" ? "desc" : "asc")}>
          {dir === "asc" ? "↑ asc" : "↓ desc"}
        </button>
      </div>
      {list.error && <p className="error-text">{list.error.message}</p>}
      <DataTable testId="skills-table" columns={["Name", "Layer", "Status", "Tags", "Description", "Last change"]} note={list.data && list.data.rows.length === 0 ? "No skill matches." : null}>
        {list.data?.rows.map((r) => (
          <tr key={r.key} data-testid={`skill-row-${r.layer}-${r.ref.skill}`}>
            <td className="font-medium">
              {r.ref.skill ? (
                <Link className="text-indigo-700 hover:underline dark:text-indigo-300" href={editorHref(r.ref, undefined, me)}>
                  {r.name}
                </Link>
              ) : (
                // A whole layer folder refused (a link out of the project): nothing in it to open.
                <span>{r.name}</span>
              )}
              {r.ref.skill && r.name !== r.ref.skill.split("/").pop() && <div className="muted text-xs">folder {r.ref.skill}</div>}
            </td>
            <td>
              <span className="badge bg-indigo-50 text-indigo-800 dark:bg-indigo-950/60 dark:text-indigo-200">
                {LAYER_LABEL[r.layer]}
                {r.plugin ? ` · ${r.plugin}` : ""}
              </span>
              {r.source && <ProvenanceLine source={r.source} />}
            </td>
            <td>
              <span className={`badge ${stateClass(r.status)}`} title={r.statusReason}>
                {stateLabel(r.status)}
              </span>
              {r.validity === "warnings" && r.status !== "invalid" && <span className="muted ml-1 text-xs">warnings</span>}
              {r.validity === "errors" && r.status !== "invalid" && (
                <span className="ml-1 text-xs text-red-700 dark:text-red-300" title={LENIENT}>
                  errors
                </span>
              )}
              {r.status === "invalid" && r.statusReason && (
                <div className="mt-1 max-w-xs text-xs text-red-800 dark:text-red-300" data-testid="invalid-reason">
                  {r.statusReason}
                </div>
              )}
              <ProblemCount p={problems.data?.byKey[r.key]} />
            </td>
            <td className="text-xs">
              {r.tags.map((t) => (
                <button key={t} type="button" className="badge mr-1 bg-zinc-100 hover:bg-zinc-200 dark:bg-zinc-800" onClick={() => (setTag(t), setPage(0))} title={`Only skills tagged ${t}`}>
                  {t}
                </button>
              ))}
            </td>
            <td className="max-w-md text-xs">
              <span className="line-clamp-2">{r.description}</span>
            </td>
            <td className="text-xs whitespace-nowrap">
              <Time at={r.lastChange.at} ago />
              <div className="muted">{r.lastChange.source === "disk" ? "on disk" : r.lastChange.by}</div>
            </td>
          </tr>
        ))}
      </DataTable>
      <div className="flex items-center gap-2 text-sm">
        <button className="btn" disabled={page === 0} onClick={() => setPage(page - 1)}>
          Previous
        </button>
        <span className="muted">
          Page {page + 1} of {pages}
        </span>
        <button className="btn" disabled={page + 1 >= pages} onClick={() => setPage(page + 1)}>
          Next
        </button>
        {list.isFetching && <span className="muted text-xs">searching…</span>}
      </div>
    </div>
  );
}

/** A filter select whose options say how many skills have each value. */
function CountedFilter<T extends string>(props: {
  label: string;
  any: string;
  value: T | "";
  values: readonly T[];
  labels: Record<T, string>;
  counts: Partial<Record<T, number>> | undefined;
  onChange: (value: T | "") => void;
}) {
  const { label, any, value, values, labels, counts, onChange } = props;
  return (
    <label className="text-sm">
      <span className="muted text-xs">{label}</span>
      <select className="input" aria-label={`${label} filter`} value={value} onChange={(e) => onChange(e.target.value as T | "")}>
        <option value="">{any}</option>
        {values.map((v) => (
          <option key={v} value={v}>
            {labels[v]} {counts?.[v] !== undefined ? `(${counts[v]})` : ""}
          </option>
        ))}
      </select>
    </label>
  );
}
