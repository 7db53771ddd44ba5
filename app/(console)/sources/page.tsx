import { SourcesAdmin } from "~/components/sources/sources-admin";
import { Forbidden } from "~/components/shell/forbidden";
import { hasRole } from "~/components/shell/nav";
import { requireUser } from "~/components/shell/require-user";

export const dynamic = "force-dynamic";

export default async function SourcesPage() {
  const user = await requireUser();
  if (!hasRole(user.role, "admin")) return <Forbidden need="admin" have={user.role} />;
  return <SourcesAdmin />;
}
