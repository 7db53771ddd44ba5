// `npm run bench`: runs every benchmark in scripts/bench/*.ts and prints one JSON document.
// Each module exports `name` and `run(): Promise<Record<string, unknown>>`. Timings on shared machines are
// noisy: each benchmark reports medians and, where it compares, ratios measured in the same run.
import { readdirSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const dir = path.join(import.meta.dirname, "bench");
const only = process.argv.slice(2);
const results: Record<string, unknown> = {
  machine: { node: process.version, cpus: (await import("node:os")).cpus().length, at: new Date().toISOString() },
};
for (const file of readdirSync(dir).filter((f) => f.endsWith(".ts")).sort()) {
  const mod = (await import(pathToFileURL(path.join(dir, file)).href)) as {
    name: string;
    run(): Promise<Record<string, unknown>>;
  };
  if (only.length && !only.includes(mod.name)) continue;
  process.stderr.write(`bench: ${mod.name}...\n`);
  results[mod.name] = await mod.run();
}
process.stdout.write(JSON.stringify(results, null, 2) + "\n");
