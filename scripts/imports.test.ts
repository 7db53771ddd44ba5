// The direction of imports (#13, server/README.md): the UI reaches the data only through the API, so nothing in
// components/ or app/ imports db/ (roles and other words come from server/domain/vocabulary.ts, data types
// from the routers' outputs); and API route handlers take their rules from the services, never from components/.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

import { repoRoot as repo, sourceFiles } from "../server/test-support/source-files";

/** Every module a file imports (static, type-only, re-export or dynamic), as a path relative to the repo. */
function importsOf(rel: string): string[] {
  const text = fs.readFileSync(path.join(repo, rel), "utf8");
  const specs = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)["']([^"']+)["']/g)].map((m) => m[1]!);
  return specs.flatMap((s) => {
    if (s.startsWith("~/")) return [s.slice(2)];
    if (s.startsWith(".")) return [path.relative(repo, path.resolve(repo, path.dirname(rel), s))];
    return [];
  });
}

/** "file -> import" for each import of `files` that lands under `forbidden`. */
function reaching(files: string[], forbidden: string): string[] {
  return files.flatMap((f) => importsOf(f).filter((i) => i === forbidden || i.startsWith(forbidden + "/")).map((i) => `${f} -> ${i}`));
}

describe("import directions", () => {
  it("sees the imports it checks", () => {
    expect(importsOf(path.join("components", "shell", "nav.ts"))).toContain("server/domain/vocabulary");
    expect(importsOf(path.join("server", "services", "bootstrap.ts"))).toContain("db/client");
  });

  it("keeps components/ and app/ away from db/", () => {
    const files = ["components", "app"].flatMap((d) => sourceFiles(d));
    expect(files.length).toBeGreaterThan(50);
    expect(reaching(files, "db")).toEqual([]);
  });

  it("keeps API route handlers away from components/", () => {
    expect(reaching(sourceFiles(path.join("app", "api")), "components")).toEqual([]);
  });
});
