import { Suspense } from "react";
import { AuditDashboard } from "~/components/audit/audit-dashboard";
import { Forbidden } from "~/components/shell/forbidden";
import { hasRole } from "~/components/shell/nav";
import { requireUser } from "~/components/shell/require-user";

export const dynamic = "force-dynamic";

// Authors see their own events, admins everyone's; viewers are refused here and again by every procedure.
export default async function AuditPage() {
  const user = await requireUser();
  if (!hasRole(user.role, "author")) return <Forbidden need="author" have={user.role} />;
  return (
    <Suspense>
      <AuditDashboard isAdmin={user.role === "admin"} openedAt={Date.now()} />
    </Suspense>
  );
}
