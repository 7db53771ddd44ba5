// The console's process: Next (production or dev) behind the console's own HTTP server (server/http/
// node-server.ts), which stamps the real peer address and refuses oversized bodies before Next reads them.
// Started by scripts/start.ts with the environment already checked and the data home prepared.
import path from "node:path";
import v8 from "node:v8";
import next from "next";
import { setting } from "../env";
import { createConsoleServer, listenOn } from "../server/http/node-server";
import { count } from "../server/domain/plural";
import { onShutdown } from "../server/http/shutdown";
import { removeOwnSandboxDirs, sweepStaleSandboxDirs } from "../server/runtime/sandbox/temp-dirs";

// Young-generation collections on the main thread alone: the console shares two cores with its turn worker (and,
// in the load bench, with its clients), and a parallel scavenge's helper threads then mostly wait for a core while
// the event loop waits for them. Measured under `npm run bench -- load`: less CPU per request (docs/performance.md). Set here,
// not on the command line, because the turn worker refuses V8 flags in its execArgv; this one is read at each
// collection, so setting it at start is enough.
v8.setFlagsFromString("--no-parallel-scavenge");

const dev = process.argv.includes("--dev");
const port = Number(process.env.PORT ?? 3000);
// Unset: every interface (a server's console is reached by others); 127.0.0.1 keeps a laptop's console to itself.
const host = setting("HOST");
const repo = path.resolve(import.meta.dirname, "..");

const swept = sweepStaleSandboxDirs();
if (swept.length) console.log(`[omniforge] removed ${count(swept.length, "sandbox folder")} left by stopped servers: ${swept.join(", ")}`);

const app = next({ dev, dir: repo, hostname: "localhost", port });
await app.prepare();
const handle = app.getRequestHandler();
// In production the tRPC and health routes are answered straight from the socket once Next has loaded them.
const server = createConsoleServer((req, res) => handle(req, res), { edge: !dev });
// The dev server's hot reload talks over a websocket.
if (dev) server.on("upgrade", app.getUpgradeHandler());

onShutdown(
  async () => {
    server.close();
    server.closeAllConnections();
    removeOwnSandboxDirs();
    await app.close();
  },
  () => removeOwnSandboxDirs(),
);

await listenOn(server, port, host).catch((e: Error) => {
  console.error(`omniforge: ${e.message}`);
  process.exit(1);
});
console.log(`[omniforge] listening on port ${port}${host ? ` of ${host}` : ""}${dev ? " (dev)" : ""}`);
