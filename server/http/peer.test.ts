import { describe, expect, it } from "vitest";
import { serveFetch } from "../test-support/http-server";
import { clientAddress, parseTrustedProxies } from "./peer";

/** A real server on 127.0.0.1 answering with the address it would audit and rate-limit by. */
async function withServer(trusted: string | undefined, run: (url: string) => Promise<void>) {
  const proxies = parseTrustedProxies(trusted);
  const s = await serveFetch(async (req) => new Response(clientAddress(req.headers, proxies)));
  try {
    await run(s.url);
  } finally {
    await s.close();
  }
}

const ask = async (url: string, headers: Record<string, string>) => (await fetch(`${url}/who`, { headers })).text();

describe("the client address", () => {
  it("is the socket's peer when no proxy is trusted, whatever the forwarding headers say", async () => {
    await withServer(undefined, async (url) => {
      expect(await ask(url, {})).toBe("127.0.0.1");
      expect(await ask(url, { "x-forwarded-for": "203.0.113.9" })).toBe("127.0.0.1");
      expect(await ask(url, { "x-real-ip": "203.0.113.9" })).toBe("127.0.0.1");
      // Nor can a client write the peer header the console's server sets.
      expect(await ask(url, { "x-omniforge-peer": "203.0.113.9" })).toBe("127.0.0.1");
    });
  });

  it("is the peer when the peer is not one of the trusted proxies", async () => {
    await withServer("10.0.0.0/8, 192.0.2.1", async (url) => {
      expect(await ask(url, { "x-forwarded-for": "203.0.113.9" })).toBe("127.0.0.1");
    });
  });

  it("comes from X-Forwarded-For when the peer is a trusted proxy: the right-most hop that is not a proxy", async () => {
    await withServer("127.0.0.0/8", async (url) => {
      expect(await ask(url, { "x-forwarded-for": "203.0.113.9" })).toBe("203.0.113.9");
      // The left entry is whatever the client wrote; the proxy appended the address it saw.
      expect(await ask(url, { "x-forwarded-for": "198.51.100.1, 203.0.113.9" })).toBe("203.0.113.9");
      expect(await ask(url, { "x-forwarded-for": "203.0.113.9, 127.0.0.5" })).toBe("203.0.113.9");
      expect(await ask(url, { "x-real-ip": "203.0.113.7" })).toBe("203.0.113.7");
      expect(await ask(url, {})).toBe("127.0.0.1");
    });
  });

  it("OMNIFORGE_TRUSTED_PROXIES is checked entry by entry", () => {
    expect(() => parseTrustedProxies("10.0.0.1, ::1, fd00::/8, 192.168.0.0/16")).not.toThrow();
    expect(() => parseTrustedProxies("10.0.0.1, proxy.local")).toThrow('"proxy.local" is not an address or CIDR');
    expect(() => parseTrustedProxies("10.0.0.0/33")).toThrow("bad prefix length");
  });
});
