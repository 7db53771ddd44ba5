"use client";
import { signIn } from "next-auth/react";
import { useState } from "react";

export function LoginForm({ callbackUrl }: { callbackUrl: string }) {
  const [error, setError] = useState<string | null>(null);
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

  return (
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
  );
}
