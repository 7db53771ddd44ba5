"use client";
// metadata as key/value rows: values edit in place; keys are fixed once added (renaming would move the row, so it
// is a remove and an add).
import { useState } from "react";

type Row = readonly [string, string];

export function MetadataRows({ rows, onChange, disabled }: { rows: Row[]; onChange: (rows: Row[]) => void; disabled?: boolean }) {
  const [key, setKey] = useState("");
  const [value, setValue] = useState("");
  const replace = (i: number, row: Row) => onChange(rows.map((r, j) => (j === i ? row : r)));
  return (
    <fieldset className="text-sm" aria-label="Metadata">
      <legend className="muted text-xs">Metadata (key and text value)</legend>
      <div className="grid gap-1">
        {rows.map(([k, v], i) => (
          <div key={i} className="flex gap-1">
            <span className="w-40 min-w-0 shrink truncate py-1.5 font-mono" title={k}>
              {k}
            </span>
            <input className="input min-w-0" aria-label={`Metadata value of ${k}`} value={v} disabled={disabled} onChange={(e) => replace(i, [k, e.target.value])} />
            <button type="button" className="btn px-2 py-1 text-xs" aria-label={`Remove metadata ${k}`} disabled={disabled} onClick={() => onChange(rows.filter((_, j) => j !== i))}>
              ×
            </button>
          </div>
        ))}
        <div className="flex gap-1">
          <input className="input w-40 min-w-0 shrink font-mono" aria-label="New metadata key" placeholder="key" value={key} disabled={disabled} onChange={(e) => setKey(e.target.value)} />
          <input className="input min-w-0" aria-label="New metadata value" placeholder="value" value={value} disabled={disabled} onChange={(e) => setValue(e.target.value)} />
          <button
            type="button"
            className="btn px-2 py-1 text-xs"
            disabled={disabled || !key.trim() || rows.some(([k]) => k === key.trim())}
            onClick={() => {
              onChange([...rows, [key.trim(), value]]);
              setKey("");
              setValue("");
            }}
          >
            Add
          </button>
        </div>
      </div>
    </fieldset>
  );
}
