"use client";
import { signIn } from "next-auth/react";
import { useState } from "react";

interface Choices {
  /** The email-and-password form (OMNIFORGE_PASSWORD_LOGIN). */
  password: boolean;
  /** The company's identity provider, when configured. */
  provider: { id: string; name: string } | null;
}

export function LoginForm({ callbackUrl, choices, problem }: { callbackUrl: string; choices: Choices; problem?: string }) {
  const [error, setError] = useState<string | null>(problem ?? null);
  const [pending, setPending] = useState(false);

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setPending(true);
    setError(null);
    const form = new FormData(e.currentTarget);
    const res = await signIn("credentials", {
      redirect: false,
      email: String(form.get("email") ?? ""),
      password: String(form.get("password") ?? ""),
    });
    setPending(false);
    if (!res || res.error) {
      setError(res?.error && res.error !== "CredentialsSignin" ? res.error : "Wrong email or password.");
      return;
    }
    window.location.assign(callbackUrl);
  }

  const provider = choices.provider;
  return (
    <div className="space-y-4">
      {provider && (
        <div className="card">
          <button
            className="btn btn-primary w-full justify-center"
            type="button"
            data-testid="sign-in-provider"
            disabled={pending}
            onClick={() => {
              setPending(true);
              void signIn(provider.id, { callbackUrl });
            }}
          >
            Sign in with {provider.name}
          </button>
        </div>
      )}
      {choices.password ? (
        <form onSubmit={onSubmit} method="post" className="card space-y-4" aria-label="Sign in">
          <label className="block text-sm">
            <span className="mb-1 block font-medium">Email</span>
            <input className="input" name="email" type="email" autoComplete="username" required autoFocus />
          </label>
          <label className="block text-sm">
            <span className="mb-1 block font-medium">Password</span>
            <input className="input" name="password" type="password" autoComplete="current-password" required />
          </label>
          {error && (
            <p className="error-text" data-testid="login-error">
              {error}
            </p>
          )}
          <button className="btn btn-primary w-full justify-center" type="submit" disabled={pending}>
            {pending ? "Signing in…" : "Sign in"}
          </button>
        </form>
      ) : (
        error && (
          <p className="error-text" data-testid="login-error">
            {error}
          </p>
        )
      )}
    </div>
  );
}
