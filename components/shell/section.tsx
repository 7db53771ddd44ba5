// A titled card on a page (the overview's panels, the doctor's report, the policy sections): one look, one
// accessible name, and optionally a line under the title that says what the section is for.
import type { ReactNode } from "react";

export function Section({ label, title, hint, children }: { label: string; title: ReactNode; hint?: ReactNode; children: ReactNode }) {
  return (
    <section className="card space-y-2" aria-label={label}>
      <h2 className="font-semibold">{title}</h2>
      {hint && <p className="muted text-sm">{hint}</p>}
      {children}
    </section>
  );
}
