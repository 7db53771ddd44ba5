// A signed-in person's HTTP client for the load bench (cookies kept, tRPC answers checked) and a recorder of each
// procedure's latencies and errors.
/**
 * The answer's data, or with `read: false` only the check that it is one (a tRPC result): the bench runs on the
 * console's two cores, and parsing every audit page and skill's files it never looks at made its own collections
 * long enough to show in the figures it measures (1-3% of its time, pauses up to 45 ms, measured with --trace-gc).
 */
async function answer<T>(proc: string, res: Response, read = true): Promise<T> {
  const text = await res.text();
  if (!read) {
    if (!res.ok || !text.startsWith('{"result":')) throw new Error(`${proc}: ${res.status} ${text.slice(0, 300)}`);
    return undefined as T;
  }
  let body: { result?: { data: { json: T } } } = {};
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    // not JSON: reported below
  }
  if (!res.ok || !body.result) throw new Error(`${proc}: ${res.status} ${text.slice(0, 300)}`);
  return body.result.data.json;
}

export class Client {
  cookie = "";
  /**
   * `origin` is the page's origin the browser would send (the public address behind a proxy; by default `base`);
   * `forwardedFor` an X-Forwarded-For a proxy would add, believed by consoles that trust the sender's address.
   */
  constructor(
    readonly base: string,
    private readonly opts: { origin?: string; forwardedFor?: string } = {},
  ) {}

  private get origin(): string {
    return this.opts.origin ?? this.base;
  }

  private headers(more: Record<string, string> = {}): Record<string, string> {
    return { cookie: this.cookie, ...(this.opts.forwardedFor ? { "x-forwarded-for": this.opts.forwardedFor } : {}), ...more };
  }

  private keep(res: Response) {
    const jar = new Map(this.cookie ? this.cookie.split("; ").map((c) => c.split("=", 2) as [string, string]) : []);
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const i = pair!.indexOf("=");
      jar.set(pair!.slice(0, i), pair!.slice(i + 1));
    }
    this.cookie = [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  async signIn(email: string, password: string): Promise<void> {
    const r = await this.signInAttempt(email, password);
    if (!r.ok) throw new Error(`load bench: ${email} could not sign in (${r.error})`);
  }

  /** One sign-in as the login page makes it; the console's refusal (the login page's `error`) when it refuses. */
  async signInAttempt(email: string, password: string): Promise<{ ok: true } | { ok: false; error: string }> {
    const csrf = await fetch(`${this.base}/api/auth/csrf`, { headers: this.headers() });
    this.keep(csrf);
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const res = await fetch(`${this.base}/api/auth/callback/credentials`, {
      method: "POST",
      redirect: "manual",
      headers: this.headers({ "content-type": "application/x-www-form-urlencoded", origin: this.origin }),
      body: new URLSearchParams({ csrfToken, email, password, json: "true" }),
    });
    this.keep(res);
    if (/session-token=/.test(this.cookie)) return { ok: true };
    // next-auth answers a refused sign-in with the login page's address, the refusal in its `error` parameter.
    const to = res.headers.get("location") ?? ((await res.json().catch(() => ({}))) as { url?: string }).url ?? "";
    return { ok: false, error: (to && new URL(to, this.base).searchParams.get("error")) || `HTTP ${res.status}` };
  }

  async query<T>(proc: string, input: unknown, read = true): Promise<T> {
    const q = encodeURIComponent(JSON.stringify({ json: input }));
    const res = await fetch(`${this.base}/api/trpc/${proc}?input=${q}`, { headers: this.headers() });
    return answer<T>(proc, res, read);
  }

  async mutate<T>(proc: string, input: unknown, read = true): Promise<T> {
    const res = await fetch(`${this.base}/api/trpc/${proc}`, {
      method: "POST",
      headers: this.headers({ "content-type": "application/json", origin: this.origin }),
      body: JSON.stringify({ json: input }),
    });
    return answer<T>(proc, res, read);
  }

  /**
   * Follows a running turn as the playground page does: its follow subscription (server-sent events) until the
   * server ends the stream with the turn, or `deadline`.
   */
  async follow(sessionId: string, deadline: number): Promise<void> {
    const q = encodeURIComponent(JSON.stringify({ json: { sessionId, from: 0 } }));
    const stop = new AbortController();
    const timer = setTimeout(() => stop.abort(), Math.max(0, deadline - Date.now()));
    try {
      const res = await fetch(`${this.base}/api/trpc/playground.follow?input=${q}`, { headers: this.headers({ accept: "text/event-stream" }), signal: stop.signal });
      if (!res.ok || !res.body) throw new Error(`playground.follow: ${res.status}`);
      const reader = res.body.getReader();
      let tail = "";
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        tail = (tail + new TextDecoder().decode(value)).slice(-200);
        // tRPC ends a finished subscription with a "return" event.
        if (/^event: return$/m.test(tail)) break;
      }
      await reader.cancel().catch(() => undefined);
    } finally {
      clearTimeout(timer);
    }
  }

  async health(): Promise<void> {
    const res = await fetch(`${this.base}/api/health`);
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`health: ${res.status}`);
  }

  /** /api/health's status code and answer (which server, the database's state), whatever the code. */
  async healthReport(): Promise<{ status: number; body: { server?: string; database?: string; databaseKind?: string } }> {
    const res = await fetch(`${this.base}/api/health`);
    return { status: res.status, body: (await res.json().catch(() => ({}))) as { server?: string } };
  }
}

export class Recorder {
  times = new Map<string, number[]>();
  errors = new Map<string, string[]>();
  /** Requests failed so far, every label together. */
  failed = 0;
  async time<T>(label: string, f: () => Promise<T>): Promise<T | undefined> {
    const t0 = performance.now();
    try {
      const v = await f();
      const list = this.times.get(label) ?? [];
      list.push(performance.now() - t0);
      this.times.set(label, list);
      return v;
    } catch (e) {
      this.failed++;
      const list = this.errors.get(label) ?? [];
      list.push((e as Error).message);
      this.errors.set(label, list);
      return undefined;
    }
  }
}
