// A test's real HTTP server on a free port of 127.0.0.1, and a close that also drops the connections a
// client keeps alive (otherwise close waits for them).
import type http from "node:http";
import type { AddressInfo } from "node:net";

export async function listenLocal(server: http.Server): Promise<{ url: string; close: () => Promise<void> }> {
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
