"use client";
// Import a skill folder from a .zip: the archive is checked and validated first (dry run, nothing written), the
// diagnostics are shown, then the person confirms. A refused archive leaves nothing behind.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useState } from "react";
import { useTRPC } from "~/components/providers/trpc";
import { count } from "~/server/domain/plural";
import { LAYER_LABEL, type LayerName as Layer } from "~/server/domain/vocabulary";
import { importButtonLabel } from "./import-skill-label";
import { editorHref } from "./links";
import { LayerSelect, PluginSelect } from "./target-select";
import { useDebounced } from "./use-debounced";

const MAX_BYTES = 20 * 1024 * 1024;

function toBase64(buf: ArrayBuffer): string {
  const bytes = new Uint8Array(buf);
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

export function ImportSkill({ onClose }: { onClose: () => void }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const targets = useQuery(trpc.skill.targets.queryOptions());
  const [layer, setLayer] = useState<Layer>("project");
  const [plugin, setPlugin] = useState("");
  const [file, setFile] = useState<{ name: string; base64: string } | null>(null);
  const [localError, setLocalError] = useState<string | null>(null);
  const [folder, setFolder] = useState("");
  const folderDebounced = useDebounced(folder.trim(), 300);
  const check = useMutation(trpc.skill.import.mutationOptions());
  const run = useMutation(
    trpc.skill.import.mutationOptions({
      onSuccess: () => void qc.invalidateQueries({ queryKey: trpc.skill.list.queryKey() }),
    }),
  );
  const report = run.data ?? check.data;
  const error = localError ?? run.error?.message ?? check.error?.message;

  const importIt = (replace: boolean) =>
    file && run.mutate({ layer, plugin: plugin || undefined, fileName: file.name, base64: file.base64, folder: folderDebounced || undefined, ...(replace ? { replace } : {}) });

  async function pick(f: File | undefined) {
    setLocalError(null);
    check.reset();
    run.reset();
    if (!f) return;
    if (f.size > MAX_BYTES) return setLocalError(`${f.name} is larger than 20 MiB.`);
    setFile({ name: f.name, base64: toBase64(await f.arrayBuffer()) });
  }

  // Dry run whenever the archive, the target or the folder name changes: checked and validated, nothing written.
  const { mutate: dryRun } = check;
  const { reset: resetRun } = run;
  useEffect(() => {
    if (!file) return;
    resetRun();
    dryRun({ layer, plugin: plugin || undefined, fileName: file.name, base64: file.base64, dryRun: true, folder: folderDebounced || undefined });
  }, [file, layer, plugin, folderDebounced, dryRun, resetRun]);

  return (
    <div className="card space-y-3" aria-label="Import skill" role="region">
      <div className="flex flex-wrap items-end gap-3">
        <label className="text-sm">
          <span className="muted text-xs">Into layer</span>
          <LayerSelect label="Import layer" layers={targets.data?.layers} value={layer} onChange={setLayer} />
        </label>
        {layer === "plugin" && <PluginSelect label="Import plugin" className="input w-48" plugins={targets.data?.plugins} value={plugin} onChange={setPlugin} />}
        <label className="text-sm">
          <span className="muted text-xs">Skill folder as .zip</span>
          <input className="input" type="file" accept=".zip,application/zip" aria-label="Skill archive" onChange={(e) => void pick(e.target.files?.[0])} />
        </label>
        <label className="text-sm">
          <span className="muted text-xs">Folder name (optional)</span>
          <input className="input w-48 font-mono" aria-label="Import folder name" placeholder="from the archive" value={folder} onChange={(e) => setFolder(e.target.value)} />
        </label>
        <button className="btn ml-auto" onClick={onClose}>
          Close
        </button>
      </div>
      {error && (
        <p className="error-text" data-testid="import-error">
          {error}
        </p>
      )}
      {check.isPending && <p className="muted text-sm">Checking the archive…</p>}
      {report && (
        <div className="space-y-2 text-sm" data-testid="import-report">
          <p>
            <strong>{report.name ?? report.folder}</strong> → {LAYER_LABEL[report.ref.layer]} layer, folder <code>{report.folder}</code>, {count(report.files.length, "file")}.{" "}
            {report.loadable ? (report.valid ? "Valid." : "Loads, with problems listed below.") : "It cannot be loaded: fix the errors before importing."}
            {report.exists && !report.imported && (
              <span className="text-amber-800 dark:text-amber-200" data-testid="import-exists">
                {" "}
                A skill folder named {report.folder} already exists in that layer: replace it as a new version (what it holds now stays in its history, to
                restore), or choose another folder name.
              </span>
            )}
          </p>
          {report.diagnostics.length > 0 && (
            <ul className="rounded border border-zinc-200 p-2 text-xs dark:border-zinc-800" data-testid="import-diagnostics">
              {report.diagnostics.map((d, i) => (
                <li key={i}>
                  <span className={d.severity === "error" ? "text-red-700 dark:text-red-300" : "text-amber-700 dark:text-amber-300"}>{d.severity}</span> <code>{d.code}</code> {d.message}
                </li>
              ))}
            </ul>
          )}
          <details>
            <summary className="cursor-pointer text-xs">Files</summary>
            <ul className="font-mono text-xs">
              {report.files.map((f) => (
                <li key={f.path}>
                  {f.path} <span className="muted">({f.size} bytes{f.binary ? ", binary" : ""})</span>
                </li>
              ))}
            </ul>
          </details>
          {report.imported ? (
            <p className="text-emerald-700 dark:text-emerald-300" data-testid="import-done">
              {report.exists ? "Replaced as a new version" : "Imported"}
              {report.valid ? "" : " with warnings"}.{" "}
              <Link className="underline" href={editorHref(report.ref)}>
                Open {report.folder}
              </Link>
            </p>
          ) : report.exists && report.loadable ? (
            <button className="btn btn-primary" disabled={!file || run.isPending} onClick={() => importIt(true)}>
              Replace {report.folder} as a new version
            </button>
          ) : (
            <button className="btn btn-primary" disabled={!file || !report.loadable || report.exists || run.isPending} onClick={() => importIt(false)}>
              {importButtonLabel(report)}
            </button>
          )}
        </div>
      )}
    </div>
  );
}
