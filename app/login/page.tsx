import { redirect } from "next/navigation";
import { pageVisitor, signInChoices } from "~/server/auth";
import { LoginForm } from "~/components/shell/login-form";
import { sameSitePath } from "~/server/http/redirect-target";
import { SIGN_IN_ERROR_DEFAULT, SIGN_IN_ERRORS } from "~/server/domain/oidc";

export const dynamic = "force-dynamic";

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string; error?: string }> }) {
  const { callbackUrl, error } = await searchParams;
  const target = sameSitePath(callbackUrl);
  const { user, databaseDown } = await pageVisitor("/login");
  if (user) redirect(target);
  // A fixed text per code, never the parameter itself: a crafted link cannot write on this page.
  const problem = databaseDown ?? (error ? (Object.hasOwn(SIGN_IN_ERRORS, error) ? SIGN_IN_ERRORS[error] : SIGN_IN_ERROR_DEFAULT) : undefined);
  return (
    <main className="flex min-h-screen items-center justify-center p-6">
      <div className="w-full max-w-sm">
        <div className="mb-6 text-center">
          <div className="text-2xl font-semibold">OmniForge Skills</div>
          <p className="muted mt-1 text-sm">Author, govern, test and audit Agent Skills.</p>
        </div>
        <LoginForm callbackUrl={target} choices={signInChoices()} problem={problem} />
      </div>
    </main>
  );
}
