"use client";
// What to do with a token just made (issue 41 item 10): the sync command for a catalog:read token and the Claude Code
// variables for a telemetry:write one, filled in with this console's address and the token, each with a Copy button.
import { claudeCodeTelemetryEnv, syncCommand, type TokenScope } from "~/server/domain/tokens";

function Snippet({ title, text, testId }: { title: string; text: string; testId: string }) {
  return (
    <div className="space-y-1">
      <div className="flex items-center gap-2 text-sm">
        <span className="font-medium">{title}</span>
        <button className="btn ml-auto px-2 py-0.5 text-xs" type="button" onClick={() => void navigator.clipboard?.writeText(text)}>
          Copy
        </button>
      </div>
      <pre className="overflow-x-auto rounded bg-zinc-50 p-2 font-mono text-xs whitespace-pre-wrap break-all dark:bg-zinc-950" data-testid={testId}>
        {text}
      </pre>
    </div>
  );
}

export function TokenUsage({ token, scopes }: { token: string; scopes: readonly TokenScope[] }) {
  // The address this browser reaches the console at is the one the agents on this person's machine can reach too.
  const origin = window.location.origin;
  return (
    <div className="space-y-3" data-testid="token-usage">
      {scopes.includes("catalog:read") && <Snippet title="Bring the catalog's skills into Claude Code" text={syncCommand(origin, token)} testId="usage-sync" />}
      {scopes.includes("telemetry:write") && (
        <Snippet
          title="Send Claude Code's telemetry to this console (in the shell, or under env in ~/.claude/settings.json)"
          text={claudeCodeTelemetryEnv(origin, token)
            .map(([k, v]) => `export ${k}=${v.includes(" ") ? `"${v}"` : v}`)
            .join("\n")}
          testId="usage-telemetry"
        />
      )}
    </div>
  );
}
