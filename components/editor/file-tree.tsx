"use client";
// The skill's files: open a text file, see binary files with their size, add/rename/delete files and folders.
import { useState } from "react";

export interface TreeItem {
  path: string;
  type: "file" | "dir";
  size: number;
  binary: boolean;
}

const formatSize = (n: number) => (n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / 1024 / 1024).toFixed(1)} MiB`);

export function FileTree(props: {
  files: TreeItem[];
  openPath: string;
  dirty: Set<string>;
  canWrite: boolean;
  busy: boolean;
  onOpen: (path: string) => void;
  onCreate: (path: string, kind: "file" | "folder") => void;
  onRename: (from: string, to: string) => void;
  onDelete: (path: string) => void;
}) {
  const [selected, setSelected] = useState<string>(props.openPath);
  const [newPath, setNewPath] = useState("");
  const [renameTo, setRenameTo] = useState("");
  const [confirmDelete, setConfirmDelete] = useState(false);
  const sel = props.files.find((f) => f.path === selected);
  const selectedDir = sel?.type === "dir" ? sel.path : sel?.path.includes("/") ? sel.path.slice(0, sel.path.lastIndexOf("/")) : "";

  return (
    <div className="flex h-full flex-col gap-2 text-sm" data-testid="file-tree">
      <ul className="min-h-0 flex-1 overflow-auto rounded border border-zinc-200 py-1 dark:border-zinc-800" aria-label="Skill files">
        {props.files.map((f) => {
          const depth = f.path.split("/").length - 1;
          const name = f.path.split("/").pop();
          const isOpen = f.path === props.openPath;
          return (
            <li key={f.path}>
              <button
                type="button"
                data-testid={`file-${f.path}`}
                onClick={() => {
                  setSelected(f.path);
                  setRenameTo(f.path);
                  setConfirmDelete(false);
                  if (f.type === "file" && !f.binary) props.onOpen(f.path);
                }}
                className={`flex w-full items-center gap-1 px-2 py-0.5 text-left hover:bg-zinc-100 dark:hover:bg-zinc-800 ${
                  isOpen ? "bg-indigo-50 font-medium dark:bg-indigo-950/60" : selected === f.path ? "bg-zinc-100 dark:bg-zinc-800" : ""
                }`}
                style={{ paddingLeft: 8 + depth * 12 }}
                title={f.binary ? `${f.path}: binary file, ${formatSize(f.size)} (not opened in the editor)` : f.path}
              >
                <span aria-hidden>{f.type === "dir" ? "▸" : f.binary ? "◆" : "·"}</span>
                <span className="truncate">{name}</span>
                {props.dirty.has(f.path) && <span className="text-amber-600" aria-label="unsaved">●</span>}
                {f.type === "file" && f.binary && <span className="muted ml-auto shrink-0 text-xs">binary · {formatSize(f.size)}</span>}
              </button>
            </li>
          );
        })}
      </ul>
      {props.canWrite && (
        <div className="space-y-2">
          <form
            className="flex gap-1"
            onSubmit={(e) => {
              e.preventDefault();
              if (newPath.trim()) props.onCreate(newPath.trim(), ((e.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null)?.value === "folder" ? "folder" : "file");
              setNewPath("");
            }}
          >
            <input
              className="input py-1 text-xs"
              aria-label="New file or folder path"
              placeholder={selectedDir ? `${selectedDir}/new.md` : "references/new.md"}
              value={newPath}
              onChange={(e) => setNewPath(e.target.value)}
            />
            <button className="btn px-2 py-1 text-xs" type="submit" value="file" disabled={props.busy}>
              + File
            </button>
            <button className="btn px-2 py-1 text-xs" type="submit" value="folder" disabled={props.busy}>
              + Folder
            </button>
          </form>
          {sel && sel.path !== "SKILL.md" && (
            <form
              className="flex gap-1"
              onSubmit={(e) => {
                e.preventDefault();
                if (renameTo.trim() && renameTo.trim() !== sel.path) props.onRename(sel.path, renameTo.trim());
              }}
            >
              <input className="input py-1 text-xs" aria-label="Rename to" value={renameTo} onChange={(e) => setRenameTo(e.target.value)} />
              <button className="btn px-2 py-1 text-xs" type="submit" disabled={props.busy}>
                Rename
              </button>
              {confirmDelete ? (
                <button
                  className="btn btn-danger px-2 py-1 text-xs"
                  type="button"
                  onClick={() => {
                    props.onDelete(sel.path);
                    setConfirmDelete(false);
                  }}
                >
                  Confirm
                </button>
              ) : (
                <button className="btn px-2 py-1 text-xs" type="button" onClick={() => setConfirmDelete(true)} disabled={props.busy}>
                  Delete
                </button>
              )}
            </form>
          )}
        </div>
      )}
    </div>
  );
}
