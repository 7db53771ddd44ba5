"use client";
// What a list of forbidden-name patterns would block in this catalog, as the admin types it (the same matching
// as the registry's policy check).
import { matchesPattern, unusablePattern } from "~/server/runtime/registry/policy";
import { count } from "~/server/domain/plural";

export function PatternPreview({ patterns, names }: { patterns: string[]; names: string[] }) {
  if (!patterns.length) return null;
  // A pattern that cannot be checked holds every name back (a stored one from before patterns were checked): say why.
  const unusable = patterns.map((p) => [p, unusablePattern(p)] as const).find(([, why]) => why !== null);
  if (unusable) {
    return (
      <p className="text-sm" data-testid="pattern-preview">
        <span className="font-mono">{unusable[0]}</span> {unusable[1]}: until it is rewritten, it holds every skill back.
      </p>
    );
  }
  const hit = names.filter((n) => patterns.some((p) => matchesPattern(n, p)));
  return (
    <p className="text-sm" data-testid="pattern-preview">
      {hit.length ? (
        <>
          Would block {count(hit.length, "skill")} of this catalog: <span className="font-mono">{hit.slice(0, 20).join(", ")}</span>
          {hit.length > 20 ? " …" : ""}
        </>
      ) : (
        <span className="muted">Matches no skill of this catalog.</span>
      )}
    </p>
  );
}

/** The catalog's skill names, for completion in the name fields (<datalist id="catalog-names">). */
export function CatalogNames({ names }: { names: string[] }) {
  return (
    <datalist id="catalog-names">
      {names.map((n) => (
        <option key={n} value={n} />
      ))}
    </datalist>
  );
}
