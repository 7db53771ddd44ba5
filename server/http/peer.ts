// Who is on the other end of a request. Next's route handlers never see the socket, so the console's own
// server (server/http/node-server.ts) writes the peer address into PEER_HEADER after deleting any copy a
// client sent, and marks the process as stamped. X-Forwarded-For and X-Real-IP are believed only when that
// peer is a proxy listed in OMNIFORGE_TRUSTED_PROXIES; otherwise anyone could pick their own address and
// walk around the per-address sign-in limit.
import type { IncomingMessage } from "node:http";
import net from "node:net";
import { processWide } from "../process-wide";

export const PEER_HEADER = "x-omniforge-peer";
/** What clientIp says when the peer cannot be known (the app was served without the console's server). */
export const UNKNOWN_PEER = "unknown";

const stamped = processWide("peerStamped", () => ({ yes: false }));

/** Replaces any client-sent PEER_HEADER with the socket's address. Called first for every request. */
export function stampPeer(req: IncomingMessage): void {
  stamped().yes = true;
  delete req.headers[PEER_HEADER];
  // Next also reads rawHeaders in places; drop the client's copies there too.
  for (let i = req.rawHeaders.length - 2; i >= 0; i -= 2) {
    if (req.rawHeaders[i]!.toLowerCase() === PEER_HEADER) req.rawHeaders.splice(i, 2);
  }
  const addr = normalise(req.socket.remoteAddress ?? "");
  req.headers[PEER_HEADER] = addr || UNKNOWN_PEER;
  req.rawHeaders.push(PEER_HEADER, addr || UNKNOWN_PEER);
}

/** ::ffff:1.2.3.4 (IPv4 on a dual-stack socket) is 1.2.3.4. */
function normalise(addr: string): string {
  const a = addr.trim();
  return a.toLowerCase().startsWith("::ffff:") && net.isIPv4(a.slice(7)) ? a.slice(7) : a;
}

export type TrustedProxies = net.BlockList;

/** Parses "10.0.0.1, 10.1.0.0/16, ::1" (addresses or CIDRs); throws with the bad entry named. */
export function parseTrustedProxies(list: string | undefined): TrustedProxies {
  const block = new net.BlockList();
  for (const raw of (list ?? "").split(",")) {
    const entry = raw.trim();
    if (!entry) continue;
    const [addr, bits, extra] = entry.split("/");
    const family = net.isIPv4(addr ?? "") ? "ipv4" : net.isIPv6(addr ?? "") ? "ipv6" : null;
    if (!family || extra !== undefined) throw new Error(`"${entry}" is not an address or CIDR`);
    if (bits === undefined) {
      block.addAddress(addr!, family);
      continue;
    }
    const n = Number(bits);
    if (!/^\d+$/.test(bits) || n > (family === "ipv4" ? 32 : 128)) throw new Error(`"${entry}" has a bad prefix length`);
    block.addSubnet(addr!, n, family);
  }
  return block;
}

// BlockList.check builds socket address objects on every call: a few percent of a tRPC call's CPU under load, for
// a verdict that is the same for the same peer (there are few of them). Kept per list, bounded.
const verdicts = new WeakMap<TrustedProxies, Map<string, boolean>>();
const VERDICTS_MAX = 10_000;

function trusted(addr: string, proxies: TrustedProxies): boolean {
  let known = verdicts.get(proxies);
  if (!known) verdicts.set(proxies, (known = new Map()));
  const hit = known.get(addr);
  if (hit !== undefined) return hit;
  const family = net.isIPv4(addr) ? "ipv4" : net.isIPv6(addr) ? "ipv6" : null;
  const verdict = family !== null && proxies.check(addr, family);
  if (known.size >= VERDICTS_MAX) known.clear();
  known.set(addr, verdict);
  return verdict;
}

type HeaderSource = Headers | Record<string, string | string[] | undefined> | undefined;

function header(h: HeaderSource, name: string): string | undefined {
  if (!h) return undefined;
  if (h instanceof Headers) return h.get(name) ?? undefined;
  const v = h[name];
  return Array.isArray(v) ? v.join(",") : v;
}

/** The direct peer as stamped by the console's server, or UNKNOWN_PEER. */
export function peerAddress(h: HeaderSource): string {
  if (!stamped().yes) return UNKNOWN_PEER;
  return header(h, PEER_HEADER)?.trim() || UNKNOWN_PEER;
}

/**
 * The client's address: the socket peer, unless that peer is a trusted proxy; then the right-most
 * X-Forwarded-For entry that is not itself a trusted proxy (entries further left are client-written),
 * or X-Real-IP. At most 64 characters, for the audit and the rate limiter.
 */
export function clientAddress(h: HeaderSource, proxies: TrustedProxies): string {
  const peer = peerAddress(h);
  if (peer === UNKNOWN_PEER || !trusted(peer, proxies)) return peer.slice(0, 64);
  const hops = (header(h, "x-forwarded-for") ?? "")
    .split(",")
    .map((s) => normalise(s))
    .filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    if (!trusted(hops[i]!, proxies)) return hops[i]!.slice(0, 64);
  }
  const real = normalise(header(h, "x-real-ip") ?? "");
  return (real || hops[0] || peer).slice(0, 64);
}
