"use client";
// The kinds of input the policies page repeats: an on/off switch that applies at once, and a list of names or
// patterns, one per line, that resets whenever the stored list changes (alone, or as a form that saves it).
import type { ReactNode } from "react";

export function PolicyToggle({ checked, label, onChange, children }: { checked: boolean | undefined; label: string; onChange: (on: boolean) => void; children?: ReactNode }) {
  return (
    <label className="flex items-center gap-2 text-sm">
      <input type="checkbox" checked={!!checked} onChange={(e) => onChange(e.target.checked)} aria-label={label} />
      {children ?? label}
    </label>
  );
}

interface ListFieldProps {
  name: string;
  values: readonly string[];
  placeholder: string;
  label: string;
  onChange?: (text: string) => void;
}

/** The entries of a list as typed: one per line, spaces and commas also separate. */
export const splitList = (s: string) => s.split(/[\s,]+/).map((x) => x.trim()).filter(Boolean);

export function ListTextarea({ name, values, placeholder, label, onChange }: ListFieldProps) {
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

/** A form around one list: submitting hands over the entries typed; `children` (preview, buttons) follow the field. */
export function ListForm({ onSave, children, ...field }: ListFieldProps & { onSave: (entries: string[]) => void; children: ReactNode }) {
  return (
    <form
      className="space-y-2"
      onSubmit={(e) => {
        e.preventDefault();
        onSave(splitList(String(new FormData(e.currentTarget).get(field.name) ?? "")));
      }}
    >
      <ListTextarea {...field} />
      {children}
    </form>
  );
}
