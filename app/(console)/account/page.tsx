import { ChangePassword } from "~/components/users/change-password";
import { requireUser } from "~/components/shell/require-user";

export const dynamic = "force-dynamic";

export default async function AccountPage() {
  const user = await requireUser();
  return (
    <div className="max-w-lg space-y-4">
      <h1 className="text-xl font-semibold">Your account</h1>
      <p className="muted text-sm">
        {user.email} · {user.role}
      </p>
      <ChangePassword />
    </div>
  );
}
