import type { NextConfig } from "next";
import "./env";

const config: NextConfig = {
  serverExternalPackages: ["better-sqlite3", "chokidar"],
  poweredByHeader: false,
  devIndicators: false,
  // `npm test` type-checks the whole project with tsc as its own step; doing it again inside next build
  // would double the slowest part of the build on two cores.
  typescript: { ignoreBuildErrors: true },
};

export default config;
