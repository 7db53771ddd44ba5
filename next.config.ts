import type { NextConfig } from "next";
import "./env";

const config: NextConfig = {
  // gpt-tokenizer: required at run time, from Node's one module cache, so the encoding the bootstrap loads before the
  // console listens (instrumentation.ts) is the one every route counts with; bundled, each graph loaded its own copy,
  // and the first trigger run's listing paid for it on the console's thread (issue 35 item 5).
  serverExternalPackages: ["better-sqlite3", "chokidar", "gpt-tokenizer"],
  poweredByHeader: false,
  devIndicators: false,
  // `npm test` type-checks the whole project with tsc as its own step; doing it again inside next build
  // would double the slowest part of the build on two cores.
  typescript: { ignoreBuildErrors: true },
};

export default config;
