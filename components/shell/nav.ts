// The console's areas. An area appears here when its page exists; each says the least role that may open it
// (the server checks the same role again on every request).
import { hasRole, type Role } from "~/server/domain/vocabulary";

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
  { href: "/doctor", label: "Doctor", minRole: "viewer" },
  { href: "/audit", label: "Audit", minRole: "author" },
  { href: "/policies", label: "Policies", minRole: "admin" },
  { href: "/sources", label: "Sources", minRole: "admin" },
  { href: "/tokens", label: "Tokens", minRole: "viewer" },
  { href: "/users", label: "Users", minRole: "admin" },
];

export { hasRole };
export const navFor = (role: Role) => NAV_ITEMS.filter((i) => hasRole(role, i.minRole));
