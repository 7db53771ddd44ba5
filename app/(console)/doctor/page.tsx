import { DoctorPolicy } from "~/components/doctor/doctor-policy";
import { DoctorReport } from "~/components/doctor/doctor-report";
import { requireUser } from "~/components/shell/require-user";

export const dynamic = "force-dynamic";

export default async function DoctorPage() {
  const user = await requireUser();
  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-xl font-semibold">Skill doctor</h1>
        <p className="text-sm text-slate-500">
          Checks beyond validation: allowed-tools against what each skill says, its scripts, its references and whether its description routes.
          The same report as <code>omniforge skill doctor</code>.
        </p>
      </div>
      {user.role === "admin" && <DoctorPolicy />}
      <DoctorReport />
    </div>
  );
}
