"use client";
// A user's tenants on the Users page (issue #40): comma-separated, saved when the field is left or Enter is
// pressed. The server checks every name and who may assign it (a tenant admin only their own tenants).
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "~/components/providers/trpc";

export function UserTenants({ userId, email, tenants, onDone, onError }: { userId: string; email: string; tenants: string[]; onDone(): void; onError(e: { message: string }): void }) {
  const trpc = useTRPC();
  const shown = tenants.join(", ");
  const [text, setText] = useState(shown);
  const save = useMutation(trpc.user.setTenants.mutationOptions({ onSuccess: onDone, onError: (e) => (setText(shown), onError(e)) }));
  const commit = () => {
    const next = text.split(",").map((t) => t.trim()).filter(Boolean);
    if (next.join(", ") !== shown) save.mutate({ id: userId, tenants: next });
  };
  return (
    <input
      className="input w-40 py-1"
      aria-label={`Tenants of ${email}`}
      placeholder="none"
      title="Comma-separated. An admin with no tenant sees every tenant; with tenants, only theirs."
      value={text}
      disabled={save.isPending}
      onChange={(e) => setText(e.target.value)}
      onBlur={commit}
      onKeyDown={(e) => e.key === "Enter" && commit()}
    />
  );
}
