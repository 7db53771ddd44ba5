import { redirect } from "next/navigation";
import { getSessionUser } from "~/server/auth";
import { LoginForm } from "~/components/shell/login-form";
import { sameSitePath } from "~/server/http/redirect-target";

export const dynamic = "force-dynamic";

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string }> }) {
  const { callbackUrl } = await searchParams;
  const target = sameSitePath(callbackUrl);
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
