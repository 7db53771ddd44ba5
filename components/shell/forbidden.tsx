import type { Role } from "~/server/domain/vocabulary";

export function Forbidden({ need, have }: { need: Role; have: Role }) {
  return (
    <div className="card mx-auto mt-12 max-w-lg text-center" data-testid="forbidden">
      <h1 className="text-lg font-semibold">Not available for your role</h1>
      <p className="muted mt-2 text-sm">
        This page needs the <strong>{need}</strong> role; you are signed in as <strong>{have}</strong>. An administrator
        can change your role on the Users page.
      </p>
    </div>
  );
}
