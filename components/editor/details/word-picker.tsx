"use client";
// A list of words (tools, tags, scope values) as removable chips and one input that offers known values and
// takes free ones: Enter or "Add" adds what is typed.
import { useId, useState } from "react";

export function WordPicker(props: {
  label: string;
  words: string[];
  known: { name: string; detail?: string }[];
  onChange: (words: string[]) => void;
  disabled?: boolean;
  placeholder?: string;
}) {
  const { label, words, known, onChange, disabled } = props;
  const [draft, setDraft] = useState("");
  const listId = useId();
  const add = () => {
    const w = draft.trim();
    if (w && !words.includes(w)) onChange([...words, w]);
    setDraft("");
  };
  return (
    <div className="text-sm" role="group" aria-label={label}>
      <span className="muted text-xs">{label}</span>
      <div className="flex flex-wrap items-center gap-1">
        {words.map((w) => (
          <span key={w} className="badge gap-1 bg-zinc-100 font-mono dark:bg-zinc-800" data-testid="chip">
            {w}
            <button type="button" aria-label={`Remove ${w} from ${label}`} disabled={disabled} onClick={() => onChange(words.filter((x) => x !== w))}>
              ×
            </button>
          </span>
        ))}
        <input
          className="input w-48 min-w-0 flex-1 font-mono"
          aria-label={`Add to ${label}`}
          list={listId}
          value={draft}
          disabled={disabled}
          placeholder={props.placeholder}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter") {
              e.preventDefault();
              add();
            }
          }}
        />
        <button type="button" className="btn px-2 py-1 text-xs" disabled={disabled || !draft.trim()} onClick={add}>
          Add
        </button>
        <datalist id={listId}>
          {known
            .filter((k) => !words.includes(k.name))
            .map((k) => (
              <option key={k.name} value={k.name}>
                {k.detail}
              </option>
            ))}
        </datalist>
      </div>
    </div>
  );
}
