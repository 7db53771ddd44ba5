"use client";
// The editor of a git source's skill: it is the pinned commit's checkout, read-only (the server refuses writes),
// so the banner says where to change it and offers a copy into the person's own layer instead (the layers' deploy,
// from exactly this definition).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "~/components/providers/trpc";
import { editorHref } from "~/components/skills/links";
import type { SkillInfo } from "~/components/editor/types";
import { ProvenanceLine } from "./provenance";

export function SourceBanner({ info }: { info: SkillInfo | undefined }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const targets = useQuery(trpc.skill.targets.queryOptions(undefined, { enabled: !!info?.source }));
  const copy = useMutation(trpc.layers.deploy.mutationOptions({ onSuccess: () => void qc.invalidateQueries({ queryKey: trpc.skill.pathKey() }) }));
  if (!info?.source) return null;
  const mayCopy = !!info.definitionId && (targets.data?.layers ?? []).includes("personal");
  return (
    <div className="rounded-md border border-sky-300 bg-sky-50 px-3 py-2 text-sm text-sky-900 dark:border-sky-800 dark:bg-sky-950/50 dark:text-sky-200" data-testid="source-banner">
      <p>
        <strong>From git: change it there.</strong> This skill is the source &ldquo;{info.source.name}&rdquo;&apos;s pinned commit, read-only here; an
        administrator moves the pin on the Sources page.
      </p>
      <ProvenanceLine source={info.source} className="mt-1 text-xs" />
      {mayCopy && (
        <div className="mt-2 flex flex-wrap items-center gap-2">
          <button
            className="btn px-2 py-1 text-xs"
            type="button"
            disabled={copy.isPending}
            onClick={() => copy.mutate({ name: info.name, fromId: info.definitionId!, target: "personal" })}
          >
            Copy to my layer
          </button>
          {copy.isSuccess && (
            <Link className="underline" href={editorHref({ layer: "personal", skill: info.name })}>
              Open your copy
            </Link>
          )}
          {copy.error && <span className="error-text">{copy.error.message}</span>}
        </div>
      )}
    </div>
  );
}
