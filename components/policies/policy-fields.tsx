"use client";
// The two kinds of input the policies page repeats: an on/off switch that applies at once, and a list of
// names or patterns, one per line, that resets whenever the stored list changes.
import type { ReactNode } from "react";

export function PolicyToggle({ checked, label, onChange, children }: { checked: boolean | undefined; label: string; onChange: (on: boolean) => void; children?: ReactNode }) {
  return (
    <label className="flex items-center gap-2 text-sm">
      <input type="checkbox" checked={!!checked} onChange={(e) => onChange(e.target.checked)} aria-label={label} />
      {children ?? label}
    </label>
  );
}

export function ListTextarea({ name, values, placeholder, label, onChange }: { name: string; values: readonly string[]; placeholder: string; label: string; onChange?: (text: string) => void }) {
  return (
    <textarea
      className="input font-mono"
      name={name}
      rows={3}
      // A new key when the stored list changes, so the uncontrolled text shows it again.
      key={values.join(",")}
      defaultValue={values.join("\n")}
      placeholder={placeholder}
      aria-label={label}
      onChange={onChange && ((e) => onChange(e.target.value))}
    />
  );
}
