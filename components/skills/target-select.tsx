"use client";
// The layer and plugin pickers that creating and importing a skill share; both lists come from skill.targets.
import { LAYER_LABEL, type LayerName as Layer } from "~/server/domain/vocabulary";
import { Options } from "~/components/shell/options";

type SelectProps<V, T = V> = { label: string; className?: string; value: V; onChange: (v: T) => void };

export function LayerSelect({ layers, label, className = "input", value, onChange }: SelectProps<Layer | "", Layer> & { layers: readonly Layer[] | undefined }) {
  return (
    <select className={className} aria-label={label} value={value} onChange={(e) => onChange(e.target.value as Layer)}>
      <Options values={layers ?? []} label={(l) => LAYER_LABEL[l]} />
    </select>
  );
}

export function PluginSelect({ plugins, label, className = "input", value, onChange }: SelectProps<string> & { plugins: readonly string[] | undefined }) {
  return (
    <select className={className} aria-label={label} value={value} onChange={(e) => onChange(e.target.value)}>
      <option value="">Choose a plugin</option>
      <Options values={plugins ?? []} />
    </select>
  );
}
