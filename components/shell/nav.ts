// The console's areas. An area appears here when its page exists; each says the least role that may open it
// (the server checks the same role again on every request).
import type { Role } from "~/db/schema";

export interface NavItem {
  href: string;
  label: string;
  minRole: Role;
}

export const NAV_ITEMS: NavItem[] = [
  { href: "/", label: "Overview", minRole: "viewer" },
  { href: "/skills", label: "Skills", minRole: "viewer" },
  { href: "/layers", label: "Layers", minRole: "viewer" },
  { href: "/playground", label: "Playground", minRole: "viewer" },
  { href: "/audit", label: "Audit", minRole: "author" },
  { href: "/policies", label: "Policies", minRole: "admin" },
  { href: "/users", label: "Users", minRole: "admin" },
];

const RANK: Record<Role, number> = { viewer: 0, author: 1, admin: 2 };
export const hasRole = (role: Role, min: Role) => RANK[role] >= RANK[min];
export const navFor = (role: Role) => NAV_ITEMS.filter((i) => hasRole(role, i.minRole));
