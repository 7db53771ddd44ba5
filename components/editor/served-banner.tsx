"use client";
// Above the editor, in words: when agents are not served the definition open here (shadowed, blocked, disabled,
// waiting for approval), which one they get instead and why (issue 41 item 8). The sentence is the server's
// (layers.served, from the Layers page's resolution of the name); the grey badge alone said too little.
// The editor keys it by the info's update time, so a save or a policy change asks for the sentence again.
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "~/components/providers/trpc";
import type { SkillInfo, SkillRef } from "./types";

export function ServedBanner({ info, skillRef }: { info: SkillInfo | undefined; skillRef: SkillRef }) {
  const trpc = useTRPC();
  const asked = !!info?.definitionId && !!info.status && info.status !== "active";
  // Someone else's personal skill resolves as that user's catalog does.
  const userId = skillRef.layer === "personal" && info?.reviewOf ? info.reviewOf.id : undefined;
  const q = useQuery(
    trpc.layers.served.queryOptions({ name: info?.name ?? "", id: info?.definitionId ?? "", ...(userId ? { userId } : {}) }, { enabled: asked, staleTime: 0, retry: false }),
  );
  if (!asked || !q.data) return null;
  return (
    <p className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm break-words text-amber-900 dark:border-amber-800 dark:bg-amber-950/50 dark:text-amber-200" data-testid="served-instead">
      {q.data.sentence}{" "}
      <Link className="underline" href={`/layers?name=${encodeURIComponent(info!.name)}`}>
        See the layers
      </Link>
    </p>
  );
}
