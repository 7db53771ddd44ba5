"use client";
// The Details form's lists: allowed tools (the executor's tools plus free patterns), where the skill applies
// (agents, environments and tenants already named in the catalog, or new ones), tags, and metadata rows.
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "~/components/providers/trpc";
import type { FieldValue } from "~/server/runtime/skill/frontmatter-document";
import type { formValues } from "./frontmatter-values";
import { MetadataRows } from "./metadata-rows";
import { WordPicker } from "./word-picker";

type Values = ReturnType<typeof formValues>;

export function DetailsLists(props: { values: Values; tools: { name: string; detail: string }[]; disabled: boolean; set: (path: string[], value: FieldValue) => void }) {
  const { values: v, tools, disabled, set } = props;
  const trpc = useTRPC();
  const options = useQuery(trpc.layers.options.queryOptions(undefined, { staleTime: 60_000 }));
  const known = (list: string[] | undefined) => (list ?? []).map((name) => ({ name }));
  const scope = options.data?.scope;
  return (
    <div className="space-y-3">
      <WordPicker
        label="Allowed tools"
        words={v.allowedTools}
        known={tools}
        disabled={disabled}
        placeholder="Read, Bash(git:*), …"
        onChange={(w) => set(["allowed-tools"], w)}
      />
      <p className="muted -mt-2 text-xs">Tools the skill may use without asking. None listed: the agent's usual rules apply.</p>
      <div className="grid gap-3 @lg:grid-cols-2 @3xl:grid-cols-3">
        <WordPicker label="Agents" words={v.agents} known={known(scope?.agents)} disabled={disabled} onChange={(w) => set(["scope", "agents"], w)} />
        <WordPicker label="Environments" words={v.environments} known={known(scope?.environments)} disabled={disabled} onChange={(w) => set(["scope", "environments"], w)} />
        <WordPicker label="Tenants" words={v.tenants} known={known(scope?.tenants)} disabled={disabled} onChange={(w) => set(["scope", "tenants"], w)} />
      </div>
      <WordPicker label="Tags" words={v.tags} known={[]} disabled={disabled} onChange={(w) => set(["tags"], w)} />
      <MetadataRows rows={v.metadata} disabled={disabled} onChange={(rows) => set(["metadata"], rows)} />
    </div>
  );
}
