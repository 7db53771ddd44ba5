// The general YAML parser, loaded on first use: it takes ~40 ms to load and most runs never need it (fast-yaml.ts
// parses the plain frontmatter subset, and config.yaml is usually absent), so `omniforge skill list` over a plain
// catalog never pays for it. One loader for the frontmatter and config.yaml readers alike.
import { createRequire } from "node:module";

let loaded: typeof import("yaml") | null = null;

export const yamlModule = (): typeof import("yaml") => (loaded ??= createRequire(import.meta.url)("yaml") as typeof import("yaml"));
