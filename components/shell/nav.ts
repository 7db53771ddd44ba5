// The console's areas. An area appears here when its page exists; each says the least role that may open it
// (the server checks the same role again on every request).
import { hasRole, type Role } from "~/server/domain/vocabulary";

export interface NavItem {
  href: string;
  label: string;
  minRole: Role;
  /** Only the global admin's (an admin of no tenant, issue #40); the shell asks the API (user.me) who that is. */
  globalAdminOnly?: true;
}

export const NAV_ITEMS: NavItem[] = [
  { href: "/", label: "Overview", minRole: "viewer" },
  { href: "/skills", label: "Skills", minRole: "viewer" },
  { href: "/layers", label: "Layers", minRole: "viewer" },
  { href: "/playground", label: "Playground", minRole: "viewer" },
  { href: "/doctor", label: "Doctor", minRole: "viewer" },
  { href: "/audit", label: "Audit", minRole: "author" },
  { href: "/policies", label: "Policies", minRole: "admin" },
  { href: "/sources", label: "Sources", minRole: "admin", globalAdminOnly: true },
  { href: "/tokens", label: "Tokens", minRole: "viewer" },
  { href: "/users", label: "Users", minRole: "admin" },
];

export { hasRole };
export const navFor = (role: Role, globalAdmin: boolean) => NAV_ITEMS.filter((i) => hasRole(role, i.minRole) && (!i.globalAdminOnly || globalAdmin));
