import Link from "next/link";
import { navFor } from "~/components/shell/nav";
import { requireUser } from "~/components/shell/require-user";

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
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {areas.map((a) => (
          <Link key={a.href} href={a.href} className="card hover:border-indigo-400">
            <div className="font-medium">{a.label}</div>
          </Link>
        ))}
      </div>
    </div>
  );
}
