// Which console server this process is, among the servers on one database: health says it, and a playground turn's
// claim carries it (playground/turn-claims.ts). The host and pid make it readable; the tag, random and chosen at
// start, makes it unique where those two are not: two containers that share a host name (a host network, a
// hostname set alike) are each often pid 1, and had the same id.
import { randomBytes } from "node:crypto";
import os from "node:os";
import { processWide } from "../process-wide";

/**
 * This process's id, `host:pid:tag` (tag: 8 hex digits): fixed while it runs, another one after a restart. One per
 * process, not per copy of this module: health (one bundle of Next's) and the turns' claims (another) name one server.
 */
export const SERVER_ID = processWide("serverId", () => `${os.hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`)();

/**
 * The host and pid a server id names; null when it is neither `host:pid:tag` nor `host:pid` (what servers before the
 * tag wrote, still on the claims of a server upgraded while a turn ran).
 */
export function serverIdParts(id: string): { host: string; pid: number } | null {
  const parts = id.split(":");
  if (parts.length === 3 && !/^[0-9a-f]{8}$/.test(parts[2]!)) return null;
  if (parts.length !== 2 && parts.length !== 3) return null;
  const pid = Number(parts[1]);
  if (!parts[0] || !Number.isInteger(pid) || pid <= 0) return null;
  return { host: parts[0], pid };
}
