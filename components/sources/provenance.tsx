// Where a git source's skill comes from: repository (without a password: the server never returns one), folder in
// it and pinned commit. The skill list shows it under the layer; the editor's banner says it in full.
export interface Provenance {
  name: string;
  url: string;
  path: string;
  commit: string;
}

export function ProvenanceLine({ source, className = "muted mt-1 text-xs" }: { source: Provenance; className?: string }) {
  return (
    <div className={className} data-testid="skill-provenance" title={`${source.url}${source.path ? ` ${source.path}` : ""} at ${source.commit}`}>
      from git: <span className="break-all">{source.url}</span>
      {source.path ? ` · ${source.path}` : ""} @ <code>{source.commit.slice(0, 12)}</code>
    </div>
  );
}
