import Link from "next/link";
import { navFor } from "~/components/shell/nav";
import { requireUser } from "~/components/shell/require-user";
import { OverviewDashboard } from "~/components/overview/overview";

export const dynamic = "force-dynamic";

export default async function OverviewPage() {
  const user = await requireUser();
  const areas = navFor(user.role).filter((i) => i.href !== "/");
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-xl font-semibold">Welcome{user.name ? `, ${user.name}` : ""}</h1>
        <p className="muted text-sm">
          Signed in as {user.email} ({user.role}).
        </p>
      </div>
      <OverviewDashboard />
      <nav className="flex flex-wrap gap-2" aria-label="Areas">
        {areas.map((a) => (
          <Link key={a.href} href={a.href} className="btn">
            {a.label}
          </Link>
        ))}
      </nav>
    </div>
  );
}
