// The direction of imports (#13, server/README.md): the UI reaches the data only through the API, so nothing in
// components/ or app/ imports db/, and nothing in components/ imports server/services (roles, the audit filter's
// fields and other words come from server/domain, data types from the routers' inputs and outputs, #42); and API
// route handlers take their rules from the services, never from components/. And no module reaches itself through its imports
// (#42): a circle makes the load order decide what a module sees, and no layer can be read on its own.
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

  it("keeps components/ away from server/services", () => {
    // Tests may: url-filter.test.ts holds the page's filter to the server's schema by running both.
    const files = sourceFiles("components", { tests: false });
    expect(files.length).toBeGreaterThan(50);
    expect(reaching(files, path.join("server", "services"))).toEqual([]);
  });

  it("keeps API route handlers away from components/", () => {
    expect(reaching(sourceFiles(path.join("app", "api")), "components")).toEqual([]);
  });
});

/** The source file an import names (a path relative to the repo without its extension, or a folder's index), or null. */
function fileOf(spec: string): string | null {
  for (const ext of [".ts", ".tsx", ".mjs", "/index.ts", "/index.tsx"]) if (fs.existsSync(path.join(repo, spec + ext))) return spec + ext;
  return fs.existsSync(path.join(repo, spec)) && fs.statSync(path.join(repo, spec)).isFile() ? spec : null;
}

/** The repository's files that import one another in a circle, each circle's files sorted. */
function circles(files: string[]): string[][] {
  return circlesOver(files, (f) => [...new Set(importsOf(f).map(fileOf).filter((t): t is string => t !== null))]);
}

/**
 * Every group of nodes that reach one another (Tarjan's strongly connected components with more than one node, or
 * a node pointing at itself), each sorted.
 */
function circlesOver(nodes: string[], targetsOf: (node: string) => string[]): string[][] {
  const edges = new Map<string, string[]>();
  const targets = (n: string) => {
    let t = edges.get(n);
    if (!t) edges.set(n, (t = targetsOf(n)));
    return t;
  };
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  // Iterative, so a long chain of imports cannot overflow the call stack.
  for (const root of nodes) {
    if (index.has(root)) continue;
    const work: { node: string; next: number }[] = [{ node: root, next: 0 }];
    index.set(root, index.size);
    low.set(root, index.get(root)!);
    stack.push(root);
    onStack.add(root);
    while (work.length) {
      const top = work[work.length - 1]!;
      const next = targets(top.node);
      if (top.next < next.length) {
        const t = next[top.next++]!;
        if (!index.has(t)) {
          index.set(t, index.size);
          low.set(t, index.get(t)!);
          stack.push(t);
          onStack.add(t);
          work.push({ node: t, next: 0 });
        } else if (onStack.has(t)) low.set(top.node, Math.min(low.get(top.node)!, index.get(t)!));
        continue;
      }
      work.pop();
      if (work.length) low.set(work[work.length - 1]!.node, Math.min(low.get(work[work.length - 1]!.node)!, low.get(top.node)!));
      if (low.get(top.node) === index.get(top.node)) {
        const group: string[] = [];
        let m: string;
        do {
          m = stack.pop()!;
          onStack.delete(m);
          group.push(m);
        } while (m !== top.node);
        if (group.length > 1 || targets(top.node).includes(top.node)) found.push(group.sort());
      }
    }
  }
  return found;
}

describe("import circles", () => {
  it("finds a circle, a self-import and a clean chain for what they are", () => {
    const tarjan = (g: Record<string, string[]>) => circlesOver(Object.keys(g), (n) => g[n] ?? []);
    expect(tarjan({ a: ["b"], b: ["c"], c: ["a"], d: ["d"], e: ["a"] })).toEqual([["a", "b", "c"], ["d"]]);
    expect(tarjan({ a: ["b", "c"], b: ["d"], c: ["d"], d: [] })).toEqual([]);
    expect(tarjan({ a: ["b"], b: ["c"], c: [] })).toEqual([]);
  });

  it("are none in the repository's own code (static, type-only and dynamic imports alike)", () => {
    const files = ["server", "components", "app", "scripts", "db", "bin", "e2e"].flatMap((d) => sourceFiles(d)).concat(["env.ts", "proxy.ts", "instrumentation.ts"]);
    expect(files.length).toBeGreaterThan(500);
    expect(circles(files).map((c) => c.join(" -> "))).toEqual([]);
  });
});

// Test helpers are told from product code at a glance (#42): they live in a test-support/ folder, the area's own beside
// its code or server/test-support for the shared ones; and product code never imports them.
describe("test helpers", () => {
  const isTest = (rel: string) => /\.(test|spec)\.tsx?$/.test(rel);
  const isSupport = (rel: string) => rel.split(path.sep).includes("test-support");
  const files = ["server", "app", "components", "db", "scripts"].flatMap((d) => sourceFiles(d));

  it("a file that imports a test runner is a test or lives in a test-support folder", () => {
    const offenders = files.filter(
      (f) => !isTest(f) && !isSupport(f) && /\bfrom\s*["'](vitest|@playwright\/test)["']/.test(fs.readFileSync(path.join(repo, f), "utf8")),
    );
    expect(offenders).toEqual([]);
  });

  it("product code imports no test support", () => {
    const supports = new Set(files.filter(isSupport).map((f) => f.replace(/\.tsx?$/, "")));
    expect(supports.size).toBeGreaterThan(5);
    // npm test's own runner (scripts/test*.ts) reads the skip marks the suites write, and the benches start what the
    // tests start: both are tooling, not product.
    const product = files.filter((f) => !isTest(f) && !isSupport(f) && !/^scripts\/(test[-.]|bench\/)/.test(f));
    expect(product.flatMap((f) => importsOf(f).filter((i) => supports.has(i.replace(/\.tsx?$/, ""))).map((i) => `${f} -> ${i}`))).toEqual([]);
  });
});

describe("e2e specs", () => {
  // #41 item 6: a journey fails on any uncaught page error only if it takes its `test` from the fixture that listens.
  it("take test from e2e/page-errors.ts, never straight from @playwright/test", () => {
    const specs = fs.readdirSync(path.join(repo, "e2e")).filter((f) => f.endsWith(".spec.ts"));
    expect(specs.length).toBeGreaterThan(10);
    const stray = specs.filter((f) => {
      const text = fs.readFileSync(path.join(repo, "e2e", f), "utf8");
      const direct = /import\s*\{([^}]*)\}\s*from\s*"@playwright\/test"/.exec(text)?.[1] ?? "";
      return /(^|[\s,])test([\s,]|$)/.test(direct) || !/from\s*"\.\/page-errors"/.test(text);
    });
    expect(stray).toEqual([]);
  });
});
