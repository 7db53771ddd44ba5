import { redirect } from "next/navigation";
import { getSessionUser } from "~/server/auth";
import { LoginForm } from "~/components/shell/login-form";

export const dynamic = "force-dynamic";

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string }> }) {
  const { callbackUrl } = await searchParams;
  // Only same-site paths: an open redirect after sign-in would be a phishing aid.
  const target = callbackUrl?.startsWith("/") && !callbackUrl.startsWith("//") ? callbackUrl : "/";
  if (await getSessionUser()) redirect(target);
  return (
    <main className="flex min-h-screen items-center justify-center p-6">
      <div className="w-full max-w-sm">
        <div className="mb-6 text-center">
          <div className="text-2xl font-semibold">OmniForge Skills</div>
          <p className="muted mt-1 text-sm">Author, govern, test and audit Agent Skills.</p>
        </div>
        <LoginForm callbackUrl={target} />
      </div>
    </main>
  );
}
