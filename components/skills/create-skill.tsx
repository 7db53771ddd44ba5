"use client";
// New skill from a short guided form: a name (checked as you type: spec rules, not already taken in that layer, and
// not blocked by policy), what it does and when to use it (made into the description), and a template. The frontmatter is
// written for the author; the editor then opens on its Details form unless they chose the text before.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { useTRPC } from "~/components/providers/trpc";
import { Options } from "~/components/shell/options";
import { type LayerName as Layer } from "~/server/domain/vocabulary";
import { preferDetailsView } from "~/components/editor/details/use-view-mode";
import { composeDescription } from "./guided-description";
import { editorHref } from "./links";
import { LayerSelect, PluginSelect } from "./target-select";
import { useDebounced } from "./use-debounced";
import { FORMAT_LIMITS } from "~/server/domain/vocabulary";

export function CreateSkill({ onClose }: { onClose: () => void }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const router = useRouter();
  const targets = useQuery(trpc.skill.targets.queryOptions());
  const [layer, setLayer] = useState<Layer | "">("");
  const [plugin, setPlugin] = useState("");
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const descriptionTooLong = description.length > FORMAT_LIMITS.descriptionChars;
  const [what, setWhat] = useState("");
  const [when, setWhen] = useState("");
  const guide = (w: string, u: string) => {
    setWhat(w);
    setWhen(u);
    setDescription(composeDescription(w, u));
  };
  const [template, setTemplate] = useState("basic");
  const debounced = useDebounced(name, 150);
  useEffect(() => {
    if (!layer && targets.data?.layers.length) setLayer(targets.data.layers.includes("project") ? "project" : targets.data.layers[0]!);
  }, [targets.data, layer]);
  const nameCheck = useQuery(
    trpc.skill.nameCheck.queryOptions({ layer: (layer || "project") as Layer, plugin: plugin || undefined, name: debounced }, { enabled: !!layer && debounced.length > 0, staleTime: 0 }),
  );
  const create = useMutation(
    trpc.skill.create.mutationOptions({
      onSuccess: (r) => {
        void qc.invalidateQueries({ queryKey: trpc.skill.list.queryKey() });
        if (what) preferDetailsView(); // answered the questions: show fields, not YAML
        router.push(editorHref(r.ref));
      },
    }),
  );
  const fresh = debounced === name;
  const ok = fresh && nameCheck.data?.ok === true;

  return (
    <form
      className="card grid gap-3 sm:grid-cols-2"
      aria-label="New skill"
      onSubmit={(e) => {
        e.preventDefault();
        if (layer) create.mutate({ layer, plugin: plugin || undefined, name, description, template });
      }}
    >
      <label className="text-sm">
        <span className="muted text-xs">Name</span>
        <input className="input font-mono" aria-label="Skill name" value={name} onChange={(e) => setName(e.target.value)} placeholder="my-skill" autoFocus maxLength={80} />
        <span className="mt-1 block text-xs" data-testid="name-check">
          {!name ? (
            <span className="muted">Lowercase letters, digits and single hyphens; at most {FORMAT_LIMITS.nameChars} characters.</span>
          ) : !fresh || nameCheck.isFetching ? (
            <span className="muted">Checking…</span>
          ) : nameCheck.data?.ok && nameCheck.data.warnings.length ? (
            // Policy blocks it: it may be created, but the catalog will list it blocked, so it is not called available.
            <span className="text-amber-700 dark:text-amber-300" data-testid="name-check-warning">
              ⚠ {nameCheck.data.warnings.join(" ")}
            </span>
          ) : nameCheck.data?.ok ? (
            <span className="text-emerald-700 dark:text-emerald-300">✓ {name} is available in the {layer} layer.</span>
          ) : (
            <span className="text-red-700 dark:text-red-300">{nameCheck.data?.problems.join(" ") ?? nameCheck.error?.message}</span>
          )}
        </span>
      </label>
      <label className="text-sm">
        <span className="muted text-xs">Layer</span>
        <LayerSelect label="Target layer" layers={targets.data?.layers} value={layer} onChange={setLayer} />
        {layer === "plugin" && <PluginSelect label="Plugin" className="input mt-1" plugins={targets.data?.plugins} value={plugin} onChange={setPlugin} />}
      </label>
      <label className="text-sm">
        <span className="muted text-xs">What does it do?</span>
        <input className="input" aria-label="What it does" value={what} onChange={(e) => guide(e.target.value, when)} placeholder="Fills PDF forms" />
      </label>
      <label className="text-sm">
        <span className="muted text-xs">When should an agent use it?</span>
        <input className="input" aria-label="When to use it" value={when} onChange={(e) => guide(what, e.target.value)} placeholder="the user asks to complete a PDF" />
      </label>
      <label className="text-sm sm:col-span-2">
        <span className="muted text-xs">Description (what agents read to choose the skill; made from your answers, change it freely)</span>
        {/* No maxLength: a field that stops taking keys cuts a pasted description mid-sentence without a word. */}
        <input className="input" aria-label="Description" aria-describedby="description-count" value={description} onChange={(e) => setDescription(e.target.value)} placeholder="Fills PDF forms. Use when the user asks to complete a PDF." />
        <span id="description-count" className="mt-1 block text-xs" data-testid="description-count">
          {descriptionTooLong ? (
            <span className="text-red-700 dark:text-red-300">
              {description.length} characters: a description holds at most {FORMAT_LIMITS.descriptionChars}. Shorten it; detail belongs in the body.
            </span>
          ) : (
            <span className="muted">
              {description.length} / {FORMAT_LIMITS.descriptionChars} characters
            </span>
          )}
        </span>
      </label>
      <label className="text-sm">
        <span className="muted text-xs">Template</span>
        <select className="input" aria-label="Template" value={template} onChange={(e) => setTemplate(e.target.value)}>
          <Options values={targets.data?.templates ?? []} value={(t) => t.id} label={(t) => t.label} />
        </select>
      </label>
      <div className="flex items-end justify-end gap-2">
        <button type="button" className="btn" onClick={onClose}>
          Cancel
        </button>
        <button type="submit" className="btn btn-primary" disabled={!ok || !description.trim() || descriptionTooLong || create.isPending || (layer === "plugin" && !plugin)}>
          Create skill
        </button>
      </div>
      {create.error && (
        <p className="error-text sm:col-span-2" data-testid="create-error">
          {create.error.message}
        </p>
      )}
    </form>
  );
}
