// A TCP proxy on 127.0.0.1 in front of a real server (the test's PostgreSQL): a database that goes away under a
// running pool without stopping the cluster other tests share. `cut()` is a database that went down (every
// connection reset, new ones refused); `freeze()` is one that stopped answering without closing anything (a network
// partition, a server stuck): bytes are held, sockets stay open. `restore()` lets traffic through again.
import net from "node:net";

export interface TcpProxy {
  /** The proxy's port on 127.0.0.1. */
  port: number;
  /** `url` with its host and port replaced by the proxy's. */
  through(url: string): string;
  cut(): void;
  freeze(): void;
  /** New connections go through again; the frozen ones stay frozen for good (a failover that never resets them). */
  forget(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function tcpProxy(targetPort: number): Promise<TcpProxy> {
  let state: "open" | "cut" | "frozen" = "open";
  const pairs = new Set<[net.Socket, net.Socket]>();
  /** Frozen pairs that restore() leaves frozen. */
  const held = new Set<[net.Socket, net.Socket]>();
  const server = net.createServer((client) => {
    if (state === "cut") return void client.resetAndDestroy();
    const upstream = net.connect(targetPort, "127.0.0.1");
    const pair: [net.Socket, net.Socket] = [client, upstream];
    pairs.add(pair);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on("error", end).on("close", end);
    upstream.on("error", end).on("close", end);
    client.pipe(upstream);
    upstream.pipe(client);
    if (state === "frozen") hold(pair);
  });
  const hold = ([a, b]: [net.Socket, net.Socket]) => {
    a.unpipe(b);
    b.unpipe(a);
    a.pause();
    b.pause();
  };
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.address() as net.AddressInfo;
  return {
    port,
    through(target: string) {
      const u = new URL(target);
      u.hostname = "127.0.0.1";
      u.port = String(port);
      return u.toString();
    },
    cut() {
      state = "cut";
      for (const [client, upstream] of pairs) {
        client.resetAndDestroy();
        upstream.destroy();
      }
      pairs.clear();
    },
    freeze() {
      state = "frozen";
      for (const pair of pairs) hold(pair);
    },
    forget() {
      for (const pair of pairs) held.add(pair);
      state = "open";
    },
    restore() {
      if (state === "frozen") {
        for (const [a, b] of [...pairs].filter((p) => !held.has(p))) {
          a.pipe(b);
          b.pipe(a);
        }
      }
      state = "open";
    },
    async close() {
      for (const [client, upstream] of pairs) {
        client.destroy();
        upstream.destroy();
      }
      pairs.clear();
      held.clear();
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}
