"use client";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "~/components/providers/trpc";
import { count } from "~/server/domain/plural";
import { emailLengthProblem } from "~/server/domain/email";
import { signInLabel } from "~/server/domain/oidc";
import { ROLES, type Role } from "~/server/domain/vocabulary";
import { ResetPassword } from "./reset-password";
import { UserTenants } from "./user-tenants";
import { DataTable } from "~/components/shell/data-table";
import { Options } from "~/components/shell/options";
import { ErrorLine, useListActions } from "~/components/shell/list-actions";
import { Time } from "~/components/shell/time";
import { RoleRights } from "./role-rights";

/** Columns a window under 1024 px leaves out, so the role, tenants and buttons stay in view. */
const WIDE = "hidden lg:table-cell";

export function UsersAdmin({ currentUserId }: { currentUserId: string }) {
  const trpc = useTRPC();
  const users = useQuery(trpc.user.list.queryOptions());
  const { error, done, fail, clear } = useListActions(trpc.user.list.queryKey());
  const [notice, setNotice] = useState<string | null>(null);
  const create = useMutation(trpc.user.create.mutationOptions({ onSuccess: done, onError: fail }));
  const update = useMutation(trpc.user.update.mutationOptions({ onSuccess: done, onError: fail }));

  const signOutEverywhere = useMutation(
    trpc.user.signOutEverywhere.mutationOptions({
      onSuccess: (r, { id }) => {
        done();
        const email = users.data?.find((u) => u.id === id)?.email ?? "the user";
        const n = r?.sessionsEnded ?? 0;
        setNotice(`Signed ${email} out everywhere: ${count(n, "open session")} ended.`);
      },
      onError: fail,
    }),
  );

  function onCreate(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const formEl = e.currentTarget;
    const email = String(f.get("email"));
    // The browser's email check knows no length limit; the server's does, said here before the round trip.
    const tooLong = emailLengthProblem(email);
    if (tooLong) return fail({ message: tooLong });
    create.mutate(
      {
        email,
        name: String(f.get("name") ?? ""),
        role: String(f.get("role")) as Role,
        password: String(f.get("password")),
      },
      { onSuccess: () => formEl.reset() },
    );
  }

  return (
    <div className="space-y-6">
      <h1 className="text-xl font-semibold">Users</h1>
      <ErrorLine error={error} testId="users-error" />
      {notice && (
        <p className="muted" role="status" data-testid="users-notice">
          {notice}
        </p>
      )}
      <RoleRights />
      <form onSubmit={onCreate} onInvalidCapture={clear} className="card grid gap-3 sm:grid-cols-5" aria-label="Create user">
        <input className="input" name="email" type="email" placeholder="email@example.com" aria-label="Email" required />
        <input className="input" name="name" placeholder="Name (optional)" aria-label="Name" />
        <select className="input" name="role" defaultValue="author" aria-label="Role">
          <Options values={ROLES} />
        </select>
        <input className="input" name="password" type="password" placeholder="Initial password (8+)" aria-label="Password" required minLength={8} />
        <button className="btn btn-primary justify-center" type="submit" disabled={create.isPending}>
          Create user
        </button>
      </form>
      <DataTable testId="users-table" columns={["Email", { label: "Name", className: WIDE }, "Role", "Tenants", "Status", { label: "Created", className: WIDE }, ""]} note={users.isLoading ? "Loading…" : null}>
        {users.data?.map((u) => (
          <tr key={u.id} data-testid={`user-row-${u.email}`}>
            {/* Long values are cut with an ellipsis (the whole in the title), so the role, status and buttons stay in view. */}
            <td className="font-medium">
              <span className="inline-block max-w-[12rem] truncate align-bottom lg:max-w-[20rem]" title={u.email} data-testid="user-email">
                {u.email}
              </span>
              {u.id === currentUserId && <span className="muted ml-1 text-xs">(you)</span>}
              {/* How they sign in, so an admin can tell whose token is whose across password and OIDC users. */}
              <span className="muted block max-w-[12rem] truncate text-xs lg:max-w-[20rem]" title={signInLabel(u.signIn)} data-testid="user-sign-in">
                {signInLabel(u.signIn)}
              </span>
            </td>
            <td className={WIDE}>
              <span className="inline-block max-w-[12rem] truncate align-bottom" title={u.name}>
                {u.name}
              </span>
            </td>
            <td>
              <select
                className="input w-28 py-1"
                aria-label={`Role of ${u.email}`}
                value={u.role}
                disabled={u.id === currentUserId}
                title={u.id === currentUserId ? "Another administrator changes your role" : undefined}
                onChange={(e) => update.mutate({ id: u.id, role: e.target.value as Role })}
              >
                <Options values={ROLES} />
              </select>
            </td>
            <td>
              <UserTenants key={u.tenants.join(",")} userId={u.id} email={u.email} tenants={u.tenants} onDone={done} onError={fail} />
            </td>
            <td>
              {u.disabled ? (
                <span className="badge bg-zinc-200 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300">disabled</span>
              ) : (
                <span className="badge bg-emerald-100 text-emerald-800 dark:bg-emerald-900/50 dark:text-emerald-200">active</span>
              )}
            </td>
            <td className={`muted ${WIDE}`}><Time at={u.createdAt} /></td>
            <td>
              <div className="flex flex-wrap justify-end gap-2">
                <button
                  className="btn"
                  title="End every open session of this user now; they sign in again"
                  disabled={signOutEverywhere.isPending}
                  onClick={() => signOutEverywhere.mutate({ id: u.id })}
                >
                  Sign out everywhere
                </button>
                {u.id !== currentUserId && <ResetPassword userId={u.id} email={u.email} />}
                {/* Nobody disables themselves (the server refuses it too). */}
                {u.id !== currentUserId && (
                  <button className="btn" onClick={() => update.mutate({ id: u.id, disabled: !u.disabled })}>
                    {u.disabled ? "Enable" : "Disable"}
                  </button>
                )}
              </div>
            </td>
          </tr>
        ))}
      </DataTable>
    </div>
  );
}
