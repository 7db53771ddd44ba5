import { AppShell } from "~/components/shell/app-shell";
import { requireUser } from "~/components/shell/require-user";

export const dynamic = "force-dynamic";

export default async function ConsoleLayout({ children }: { children: React.ReactNode }) {
  const user = await requireUser();
  return <AppShell user={user}>{children}</AppShell>;
}
