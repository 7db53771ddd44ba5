import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { AppShell } from "~/components/shell/app-shell";
import { getSessionUser } from "~/server/auth";

export const dynamic = "force-dynamic";

export default async function ConsoleLayout({ children }: { children: React.ReactNode }) {
  const user = await getSessionUser();
  if (!user) {
    const path = (await headers()).get("x-omniforge-path") ?? "/";
    redirect(`/login?callbackUrl=${encodeURIComponent(path)}`);
  }
  return <AppShell user={user}>{children}</AppShell>;
}
