import { requireUser } from "~/components/shell/require-user";
import { OverviewDashboard } from "~/components/overview/overview";
import { AreaLinks } from "~/components/overview/area-links";

export const dynamic = "force-dynamic";

export default async function OverviewPage() {
  const user = await requireUser();
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-xl font-semibold">Welcome{user.name ? `, ${user.name}` : ""}</h1>
        <p className="muted text-sm">
          Signed in as {user.email} ({user.role}).
        </p>
      </div>
      <OverviewDashboard />
      <AreaLinks role={user.role} />
    </div>
  );
}
