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
  constructor(readonly base: string) {}

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
    const csrf = await fetch(`${this.base}/api/auth/csrf`, { headers: { cookie: this.cookie } });
    this.keep(csrf);
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const res = await fetch(`${this.base}/api/auth/callback/credentials`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: this.cookie, origin: this.base },
      body: new URLSearchParams({ csrfToken, email, password, json: "true" }),
    });
    this.keep(res);
    if (!/session-token=/.test(this.cookie)) throw new Error(`load bench: ${email} could not sign in (${res.status})`);
  }

  async query<T>(proc: string, input: unknown, read = true): Promise<T> {
    const q = encodeURIComponent(JSON.stringify({ json: input }));
    const res = await fetch(`${this.base}/api/trpc/${proc}?input=${q}`, { headers: { cookie: this.cookie } });
    return answer<T>(proc, res, read);
  }

  async mutate<T>(proc: string, input: unknown, read = true): Promise<T> {
    const res = await fetch(`${this.base}/api/trpc/${proc}`, {
      method: "POST",
      headers: { cookie: this.cookie, "content-type": "application/json", origin: this.base },
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
      const res = await fetch(`${this.base}/api/trpc/playground.follow?input=${q}`, { headers: { cookie: this.cookie, accept: "text/event-stream" }, signal: stop.signal });
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
}

export class Recorder {
  times = new Map<string, number[]>();
  errors = new Map<string, string[]>();
  async time<T>(label: string, f: () => Promise<T>): Promise<T | undefined> {
    const t0 = performance.now();
    try {
      const v = await f();
      const list = this.times.get(label) ?? [];
      list.push(performance.now() - t0);
      this.times.set(label, list);
      return v;
    } catch (e) {
      const list = this.errors.get(label) ?? [];
      list.push((e as Error).message);
      this.errors.set(label, list);
      return undefined;
    }
  }
}
