import "server-only";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { getSessionUser, type SessionUser } from "~/server/auth";

// Layouts and pages render concurrently in the App Router, so every console page asks for the user itself
// instead of trusting the layout's redirect.
export async function requireUser(): Promise<SessionUser> {
  const user = await getSessionUser();
  if (!user) {
    const path = (await headers()).get("x-omniforge-path") ?? "/";
    redirect(`/login?callbackUrl=${encodeURIComponent(path)}`);
  }
  return user;
}
