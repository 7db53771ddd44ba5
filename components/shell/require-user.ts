import "server-only";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { pageVisitor, type SessionUser } from "~/server/auth";

// Layouts and pages render concurrently in the App Router, so every console page asks for the user itself
// instead of trusting the layout's redirect. While the database does not answer, the login page says so in its one
// line (and takes the person back once it answers and the session is still open).
export async function requireUser(): Promise<SessionUser> {
  const path = (await headers()).get("x-omniforge-path") ?? "/";
  const { user } = await pageVisitor(path.split("?")[0]!);
  if (!user) redirect(`/login?callbackUrl=${encodeURIComponent(path)}`);
  return user;
}
