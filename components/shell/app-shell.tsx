"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useState } from "react";
import { signOut } from "next-auth/react";
import type { SessionUser } from "~/server/auth";
import { useNav } from "./use-nav";

export function AppShell({ user, children }: { user: SessionUser; children: React.ReactNode }) {
  const pathname = usePathname();
  // Whether an admin is the global one (of no tenant) is the server's answer: a tenant admin has no Sources link.
  const { items, globalAdmin } = useNav(user.role);
  // Below 1024 px the links sit behind a Menu button, so the header stays one row; a link followed closes it.
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => setMenuOpen(false), [pathname]);
  const isActive = (href: string) => (href === "/" ? pathname === "/" : pathname === href || pathname.startsWith(href + "/"));
  return (
    <div className="flex min-h-screen flex-col">
      {/* First stop of the keyboard: past the dozen links of the header to the page itself. Hidden until focused. */}
      <a
        href="#main-content"
        className="sr-only rounded-md bg-white px-3 py-2 text-sm font-medium text-indigo-700 shadow focus:not-sr-only focus:fixed focus:left-2 focus:top-2 focus:z-50 dark:bg-zinc-900 dark:text-indigo-300"
      >
        Skip to content
      </a>
      <header className="border-b border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900">
        <div className="mx-auto flex max-w-screen-2xl flex-wrap items-center gap-x-4 gap-y-1 px-4 py-2">
          <Link href="/" className="flex items-center gap-2 font-semibold">
            <img src="/icon.svg" alt="" width={22} height={22} />
            OmniForge Skills
          </Link>
          <button type="button" className="btn px-2 py-1 lg:hidden" aria-expanded={menuOpen} aria-controls="main-nav" onClick={() => setMenuOpen(!menuOpen)}>
            Menu
          </button>
          <nav
            id="main-nav"
            aria-label="Main"
            data-global-admin={globalAdmin === undefined ? undefined : String(globalAdmin)}
            className={`${menuOpen ? "flex" : "hidden"} order-last w-full flex-col items-stretch gap-1 text-sm lg:order-none lg:flex lg:w-auto lg:flex-1 lg:flex-row lg:flex-wrap lg:items-center`}
          >
            {items.map((i) => (
              <Link
                key={i.href}
                href={i.href}
                aria-current={isActive(i.href) ? "page" : undefined}
                className={`rounded-md px-1.5 py-1.5 ${
                  isActive(i.href)
                    ? "bg-zinc-100 font-medium text-zinc-900 dark:bg-zinc-800 dark:text-white"
                    : "text-zinc-600 hover:bg-zinc-50 dark:text-zinc-300 dark:hover:bg-zinc-800/60"
                }`}
              >
                {i.label}
              </Link>
            ))}
          </nav>
          <div className="ml-auto flex items-center gap-3 text-sm lg:ml-0" data-testid="signed-in-user">
            <Link href="/account" className="hidden max-w-[24ch] truncate align-middle hover:underline sm:inline-block" title={`${user.email}: your account, change password`}>
              {user.email}
            </Link>
            <span className="badge bg-indigo-100 text-indigo-800 dark:bg-indigo-900/60 dark:text-indigo-200" data-testid="user-role">
              {user.role}
            </span>
            <button className="btn" onClick={() => signOut({ callbackUrl: "/login" })}>
              Sign out
            </button>
          </div>
        </div>
      </header>
      <main id="main-content" tabIndex={-1} className="mx-auto w-full max-w-screen-2xl flex-1 p-4 focus:outline-none">
        {children}
      </main>
    </div>
  );
}
