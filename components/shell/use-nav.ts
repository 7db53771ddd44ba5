"use client";
// The console's areas for this person: by role, and the global admin's areas (Sources) only once the server has said
// the admin is the global one (an admin of no tenant, issue #40). The header and the Overview's links both ask here.
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "~/components/providers/trpc";
import type { Role } from "~/server/domain/vocabulary";
import { navFor, type NavItem } from "./nav";

export function useNav(role: Role): { items: NavItem[]; globalAdmin: boolean | undefined } {
  const trpc = useTRPC();
  const me = useQuery(trpc.user.me.queryOptions(undefined, { enabled: role === "admin", staleTime: 60_000 }));
  const globalAdmin = me.data?.globalAdmin;
  return { items: navFor(role, globalAdmin ?? false), globalAdmin };
}
