// A titled card on a page (the overview's panels, the doctor's report, the policy sections): one look, one
// accessible name.
import type { ReactNode } from "react";

export function Section({ label, title, children }: { label: string; title: ReactNode; children: ReactNode }) {
  return (
    <section className="card space-y-2" aria-label={label}>
      <h2 className="font-semibold">{title}</h2>
      {children}
    </section>
  );
}
