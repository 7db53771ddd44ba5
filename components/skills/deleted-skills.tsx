"use client";
// Deleted skills (each a "delete" version with every file kept), restorable by anyone who may write the layer.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "~/components/providers/trpc";
import { LAYER_LABEL } from "~/server/domain/vocabulary";
import { editorHref } from "./links";
import { DataTable } from "~/components/shell/data-table";
import { Time } from "~/components/shell/time";

export function DeletedSkills({ canRestore }: { canRestore: boolean }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const deleted = useQuery(trpc.skill.deleted.queryOptions(undefined, { staleTime: 0 }));
  const restore = useMutation(
    trpc.skill.restoreDeleted.mutationOptions({
      onSuccess: () => {
        void qc.invalidateQueries({ queryKey: trpc.skill.deleted.queryKey() });
        void qc.invalidateQueries({ queryKey: trpc.skill.list.queryKey() });
      },
    }),
  );
  return (
    <div className="space-y-4">
      <div className="flex items-center gap-2">
        <Link href="/skills" className="muted text-sm hover:underline">
          ← Skills
        </Link>
        <h1 className="text-xl font-semibold">Deleted skills</h1>
      </div>
      {restore.error && <p className="error-text">{restore.error.message}</p>}
      {restore.data && (
        <p className="text-sm text-emerald-700 dark:text-emerald-300" data-testid="restored">
          Restored. <Link className="underline" href={editorHref(restore.data.ref)}>Open {restore.data.ref.skill}</Link>
        </p>
      )}
      <DataTable testId="deleted-table" columns={["Skill folder", "Layer", "Deleted", "By", "Files", ""]} note={deleted.data?.length === 0 ? "No deleted skills." : null}>
        {deleted.data?.map((d) => (
          <tr key={d.versionId} data-testid={`deleted-${d.ref.skill}`}>
            <td className="font-mono">{d.ref.skill}</td>
            <td>
              {LAYER_LABEL[d.ref.layer]}
              {d.ref.plugin ? ` · ${d.ref.plugin}` : ""}
            </td>
            <td><Time at={d.deletedAt} /></td>
            <td>{d.deletedBy}</td>
            <td>{d.files}</td>
            <td>
              {canRestore && (
                <button className="btn" disabled={restore.isPending} onClick={() => restore.mutate({ id: d.versionId })}>
                  Restore
                </button>
              )}
            </td>
          </tr>
        ))}
      </DataTable>
    </div>
  );
}
