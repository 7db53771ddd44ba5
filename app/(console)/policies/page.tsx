import { PoliciesAdmin } from "~/components/policies/policies-admin";
import { Forbidden } from "~/components/shell/forbidden";
import { hasRole } from "~/components/shell/nav";
import { requireUser } from "~/components/shell/require-user";

export const dynamic = "force-dynamic";

export default async function PoliciesPage() {
  const user = await requireUser();
  if (!hasRole(user.role, "admin")) return <Forbidden need="admin" have={user.role} />;
  return <PoliciesAdmin />;
}
