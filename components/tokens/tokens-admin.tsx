"use client";
// Access tokens: make one (shown once, with a copy button), see your tokens (administrators: every token, machine
// tokens included) with their scopes, expiry and last use, and revoke one.
import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "~/components/providers/trpc";
import { TOKEN_DEFAULT_EXPIRY_DAYS, TOKEN_SCOPES, type TokenScope } from "~/server/domain/tokens";
import { signInLabel } from "~/server/domain/oidc";
import { DataTable } from "~/components/shell/data-table";
import { ErrorLine, useListActions } from "~/components/shell/list-actions";
import { Time } from "~/components/shell/time";
import { TokenUsage } from "./token-usage";

const when = (d: Date | string | null) => (d ? <Time at={d} /> : "—");

export function TokensAdmin({ isAdmin }: { isAdmin: boolean }) {
  const trpc = useTRPC();
  const [all, setAll] = useState(false);
  const list = useQuery(trpc.tokens.list.queryOptions({ all: isAdmin && all }));
  const users = useQuery({ ...trpc.user.list.queryOptions(), enabled: isAdmin });
  const { error, done, refresh, fail } = useListActions(trpc.tokens.list.queryKey());
  const [shown, setShown] = useState<{ name: string; token: string; scopes: TokenScope[] } | null>(null);
  const create = useMutation(
    trpc.tokens.create.mutationOptions({
      onSuccess: (r) => {
        setShown({ name: r.info.name, token: r.token, scopes: r.info.scopes });
        done();
      },
      onError: fail,
    }),
  );
  const revoke = useMutation(trpc.tokens.revoke.mutationOptions({ onSuccess: refresh, onError: fail }));

  function onCreate(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const owner = String(f.get("owner") ?? "");
    // Blank: all of the owner's tenants; else at most theirs (the server refuses more).
    const tenants = String(f.get("tenants") ?? "").split(",").map((t) => t.trim()).filter(Boolean);
    create.mutate({
      name: String(f.get("name")),
      scopes: TOKEN_SCOPES.filter((s) => f.get(`scope-${s}`)) as TokenScope[],
      expiresInDays: Number(f.get("expires")),
      forUserId: owner || undefined,
      ...(tenants.length ? { tenants } : {}),
    });
  }

  return (
    <div className="space-y-6">
      <h1 className="text-xl font-semibold">Access tokens</h1>
      <p className="muted text-sm">
        A token lets <code>omniforge sync</code> read your catalog (<code>catalog:read</code>) or an agent send its telemetry
        (<code>telemetry:write</code>), as <code>Authorization: Bearer</code> on those API routes only.
      </p>
      <ErrorLine error={error} testId="tokens-error" />
      {shown && (
        <div className="card space-y-2" role="status" data-testid="token-shown">
          <p>
            Token <strong>{shown.name}</strong>: copy it now, it will not be shown again.
          </p>
          <code className="block break-all" data-testid="token-value">
            {shown.token}
          </code>
          <div className="flex gap-2">
            <button className="btn" type="button" onClick={() => void navigator.clipboard?.writeText(shown.token)}>
              Copy
            </button>
            <button className="btn" type="button" onClick={() => setShown(null)}>
              Done
            </button>
          </div>
          <TokenUsage token={shown.token} scopes={shown.scopes} />
        </div>
      )}
      <form onSubmit={onCreate} className="card grid gap-3 sm:grid-cols-5" aria-label="Create token">
        <input className="input" name="name" placeholder="Name, e.g. laptop" aria-label="Token name" required maxLength={80} />
        <fieldset className="flex flex-col gap-1 text-sm">
          {TOKEN_SCOPES.map((s) => (
            <label key={s} className="flex items-center gap-1">
              <input type="checkbox" name={`scope-${s}`} defaultChecked={s === "catalog:read"} /> {s}
            </label>
          ))}
        </fieldset>
        <label className="flex items-center gap-2 text-sm">
          Expires in
          <input className="input w-20" name="expires" type="number" min={1} max={366} defaultValue={TOKEN_DEFAULT_EXPIRY_DAYS} aria-label="Expires in days" />
          days
        </label>
        <input className="input" name="tenants" placeholder="Tenants (blank: the owner's)" aria-label="Token tenants" title="Comma-separated; at most the owner's tenants" />
        {isAdmin ? (
          <label className="flex items-center gap-2 text-sm">
            For
            <select className="input min-w-0" name="owner" aria-label="For" defaultValue="">
              <option value="">me</option>
              <option value="machine">machine (no user)</option>
              {users.data?.map((u) => (
                <option key={u.id} value={u.id}>
                  {u.email}
                </option>
              ))}
            </select>
          </label>
        ) : (
          <span />
        )}
        <button className="btn btn-primary justify-center self-center" type="submit" disabled={create.isPending}>
          Create token
        </button>
      </form>
      {isAdmin && (
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={all} onChange={(e) => setAll(e.target.checked)} aria-label="Show every token" /> Show every
          user&apos;s tokens and machine tokens
        </label>
      )}
      <DataTable testId="tokens-table" columns={["Name", "For", "Scopes", "Created", "Expires", "Last used", "Last sync", ""]} note={list.data?.length === 0 ? "No tokens yet." : null}>
        {list.data?.map((t) => (
          <tr key={t.id} data-testid={`token-row-${t.name}`}>
            <td className="font-medium">
              {t.name} <span className="muted text-xs">{t.prefix}…</span>
            </td>
            <td className="break-all">
              {t.userEmail ?? "machine"}
              {t.ownerSignIn && (
                <span className="muted block text-xs" data-testid="token-owner-sign-in">
                  {signInLabel(t.ownerSignIn)}
                </span>
              )}
            </td>
            <td>
              {t.scopes.map((s) => (
                <div key={s}>{s}</div>
              ))}
              {t.tenants.length > 0 && <span className="muted block text-xs">tenants: {t.tenants.join(", ")}</span>}
            </td>
            <td>{when(t.createdAt)}</td>
            <td>{when(t.expiresAt)}</td>
            <td>{when(t.lastUsedAt)}</td>
            <td>{when(t.lastSyncAt)}</td>
            <td>
              {t.revokedAt ? (
                <span className="muted">revoked {when(t.revokedAt)}</span>
              ) : (
                <button className="btn" type="button" onClick={() => revoke.mutate({ id: t.id })} aria-label={`Revoke ${t.name}`}>
                  Revoke
                </button>
              )}
            </td>
          </tr>
        ))}
      </DataTable>
    </div>
  );
}
