"use client";
// The side panel: the body as Markdown (links to the skill's own files open them; links that leave the skill are
// flagged; images are never fetched), and the cost of each stage for the text being edited (what each mode sends
// is disclosure-panel.tsx).
import ReactMarkdown from "react-markdown";
import type { LiveCheckResult } from "./types";

function LinkIn({ href, children, check, onOpen }: { href?: string; children: React.ReactNode; check: LiveCheckResult | null; onOpen: (p: string) => void }) {
  const info = check?.links.find((l) => l.href === href);
  if (info?.kind === "inside" && info.path) {
    return (
      <button type="button" className="text-indigo-600 underline dark:text-indigo-400" onClick={() => onOpen(info.path!)} title={`Open ${info.path}`}>
        {children}
      </button>
    );
  }
  const flag =
    info?.kind === "missing" ? "missing file" : info?.kind === "url" ? "external link" : info?.kind === "outside" ? "leaves the skill" : href?.startsWith("#") ? null : "leaves the skill";
  return (
    <span className={flag && flag !== "external link" ? "text-red-700 dark:text-red-300" : ""} data-testid="flagged-link" title={href}>
      <span className="underline decoration-dotted">{children}</span>
      {flag && <span className="badge ml-1 bg-amber-100 text-amber-800 dark:bg-amber-900/50 dark:text-amber-200">⚠ {flag}</span>}
    </span>
  );
}

export function PreviewPanel({ check, onOpen }: { check: LiveCheckResult | null; onOpen: (p: string) => void }) {
  if (!check) return <p className="muted text-sm">Checking…</p>;
  if (!check.loadable) return <p className="muted text-sm">The frontmatter does not load yet; fix the errors to see the preview.</p>;
  return (
    <div className="prose-sm max-w-none space-y-2 text-sm [&_h1]:text-lg [&_h1]:font-semibold [&_h2]:font-semibold [&_li]:ml-5 [&_ol]:list-decimal [&_pre]:overflow-auto [&_pre]:rounded [&_pre]:bg-zinc-100 [&_pre]:p-2 [&_ul]:list-disc dark:[&_pre]:bg-zinc-800" data-testid="preview">
      <ReactMarkdown
        components={{
          a: ({ href, children }) => (
            <LinkIn href={href} check={check} onOpen={onOpen}>
              {children}
            </LinkIn>
          ),
          // Never fetch images: a remote image would make the browser leave localhost.
          img: ({ alt, src }) => <span className="badge bg-zinc-100 dark:bg-zinc-800" title={String(src ?? "")}>image: {alt || String(src ?? "")}</span>,
        }}
      >
        {check.body}
      </ReactMarkdown>
    </div>
  );
}

export function AgentPanel({ check }: { check: LiveCheckResult | null }) {
  if (!check) return <p className="muted text-sm">Checking…</p>;
  return (
    <div className="space-y-3 text-sm">
      <div>
        <h3 className="font-semibold">As you type</h3>
        <p className="muted text-xs">Stage costs of the text in the editor, saved or not.</p>
      </div>
      <table className="table" data-testid="costs">
        <thead>
          <tr>
            <th>Stage</th>
            <th>Characters</th>
            <th>~Tokens</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td>1 · name + description</td>
            <td>{check.stage1.chars}</td>
            <td>{check.stage1.tokens}</td>
          </tr>
          <tr>
            <td>2 · body on activation</td>
            <td>{check.stage2.chars}</td>
            <td>{check.stage2.tokens}</td>
          </tr>
        </tbody>
      </table>
      <p className="muted text-xs">Token counts are estimates (o200k tokenizer); other models count differently.</p>
    </div>
  );
}
