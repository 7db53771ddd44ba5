import { Forbidden } from "~/components/shell/forbidden";
import { hasRole } from "~/components/shell/nav";
import { UsersAdmin } from "~/components/users/users-admin";
import { requireUser } from "~/components/shell/require-user";

export const dynamic = "force-dynamic";

export default async function UsersPage() {
  const user = await requireUser();
  if (!hasRole(user.role, "admin")) return <Forbidden need="admin" have={user.role} />;
  return <UsersAdmin currentUserId={user.id} />;
}
