"use client";
// Versions of the skill (newest first) with author and time. Pick two to compare in Monaco's diff editor, compare
// one with the current file, or restore one (which is itself a new version).
import { useState } from "react";
import type { VersionRow } from "./types";
import { Time } from "~/components/shell/time";


export function HistoryPanel(props: {
  versions: VersionRow[] | undefined;
  canWrite: boolean;
  busy: boolean;
  onCompare: (a: VersionRow, b: VersionRow | "current") => void;
  onRestore: (v: VersionRow) => void;
}) {
  const [picked, setPicked] = useState<number[]>([]);
  const [confirmRestore, setConfirmRestore] = useState<number | null>(null);
  if (!props.versions) return <p className="muted text-sm">Loading history…</p>;
  if (!props.versions.length) return <p className="muted text-sm">No versions yet: the skill was not changed through the console.</p>;
  const toggle = (id: number) => setPicked((p) => (p.includes(id) ? p.filter((x) => x !== id) : [...p.slice(-1), id]));
  const pickedRows = props.versions.filter((v) => picked.includes(v.id));
  const sameFile = pickedRows.length === 2 && pickedRows[0]!.path === pickedRows[1]!.path;
  return (
    <div className="space-y-2 text-sm" data-testid="history">
      <div className="flex items-center gap-2">
        <button
          className="btn px-2 py-1 text-xs"
          disabled={!sameFile}
          title={pickedRows.length === 2 && !sameFile ? "Pick two versions of the same file" : "Pick two versions"}
          onClick={() => {
            // Older on the left.
            const [a, b] = [...pickedRows].sort((x, y) => x.id - y.id);
            props.onCompare(a!, b!);
          }}
        >
          Compare selected
        </button>
        <span className="muted text-xs">{picked.length}/2 selected</span>
      </div>
      <ul className="divide-y divide-zinc-100 dark:divide-zinc-800">
        {props.versions.map((v, i) => (
          <li key={v.id} className="py-1.5" data-testid={`version-${props.versions!.length - i}`}>
            <div className="flex items-start gap-2">
              <input type="checkbox" aria-label={`Select version #${v.id}`} checked={picked.includes(v.id)} onChange={() => toggle(v.id)} disabled={!v.hasContent} className="mt-1" />
              <div className="min-w-0 flex-1">
                <div className="flex flex-wrap items-center gap-1">
                  {/* The number every message about this version uses (compare titles, restore notices). */}
                  <span className="font-mono text-xs text-zinc-500" data-testid="version-number">
                    #{v.id}
                  </span>
                  <span className="badge bg-zinc-100 dark:bg-zinc-800">{v.action}</span>
                  <span className="truncate font-mono text-xs">{v.path || "(whole skill)"}</span>
                </div>
                <div className="muted text-xs">
                  {v.authorEmail} · <Time at={v.createdAt} />
                </div>
                {v.message && <div className="text-xs">{v.message}</div>}
                {v.hasContent && (
                  <div className="mt-1 flex gap-1">
                    <button className="btn px-1.5 py-0.5 text-xs" onClick={() => props.onCompare(v, "current")}>
                      vs current
                    </button>
                    {props.canWrite &&
                      (confirmRestore === v.id ? (
                        <button
                          className="btn btn-primary px-1.5 py-0.5 text-xs"
                          disabled={props.busy}
                          onClick={() => {
                            setConfirmRestore(null);
                            props.onRestore(v);
                          }}
                        >
                          Confirm restore
                        </button>
                      ) : (
                        <button className="btn px-1.5 py-0.5 text-xs" onClick={() => setConfirmRestore(v.id)}>
                          Restore
                        </button>
                      ))}
                  </div>
                )}
              </div>
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}
