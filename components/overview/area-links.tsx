"use client";
// The Overview's links to the console's areas: the header's list (components/shell/use-nav.ts), as buttons.
import Link from "next/link";
import { useNav } from "~/components/shell/use-nav";
import type { Role } from "~/server/domain/vocabulary";

export function AreaLinks({ role }: { role: Role }) {
  const { items } = useNav(role);
  return (
    <nav className="flex flex-wrap gap-2" aria-label="Areas">
      {items
        .filter((i) => i.href !== "/")
        .map((a) => (
          <Link key={a.href} href={a.href} className="btn">
            {a.label}
          </Link>
        ))}
    </nav>
  );
}
