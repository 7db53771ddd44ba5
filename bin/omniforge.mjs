#!/usr/bin/env node
// The `omniforge` command. The CLI is TypeScript in server/cli; tsx runs it without a separate build step,
// so the bin is never stale relative to the runtime it shares with the console.
import { register } from "tsx/esm/api";

register();
// `omniforge skill list | head` closes the pipe early: that is the reader's choice, not an error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (e) => {
    if (e.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw e;
  });
}
const { main } = await import("../server/cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
