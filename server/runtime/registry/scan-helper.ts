// A cold index build on two threads (the CLI's `skill list`): the layer roots' walks are cut in units, a helper
// thread walks them and reads the SKILL.md files (walk-read.ts), and the command's thread checks what arrives;
// the index gets the same entries as from one thread. Only the CLI imports this module: the console builds on one
// thread (its index is built once and then kept current), and its bundler must not meet a worker that loads its
// own file.
import { startReadHelper } from "../skill/read-helper";
import { type RootsScanner, rootUnits, SCAN_MAX_DEPTH, scanRead } from "./scan";

export interface ScannerWithHelper {
  /** Once. */
  run: RootsScanner;
  /** Stops the helper, whether or not `run` ran. */
  close(): void;
  /** What the run shared: the parts of the walk below the layer roots, and how many of them the helper did. */
  units: number;
  helped: number;
}

/**
 * A RootsScanner sharing the work with a helper thread, started now (null when one thread should do it all: see
 * startWalkHelper). The helper walks and reads; this thread checks, and works alone until the helper is ready.
 */
export function scannerWithHelper(enabled: boolean): ScannerWithHelper | null {
  const helper = startReadHelper(enabled);
  if (!helper) return null;
  const scanner: ScannerWithHelper = {
    run(roots, opts) {
      try {
        const cut = roots.map((root, r) => rootUnits(root, r, opts));
        const perRoot = cut.map((c) => [c.own]);
        const units = cut.flatMap((c) => c.units);
        scanner.units = units.length;
        scanner.helped = helper.share({ maxDepth: SCAN_MAX_DEPTH, nested: opts.checks !== "frontmatter" }, units, (read, i) => {
          const root = units[i]!.root;
          perRoot[root]!.push(scanRead(roots[root]!, read, opts));
        });
        return perRoot;
      } finally {
        helper.close();
      }
    },
    close: () => helper.close(),
    units: 0,
    helped: 0,
  };
  return scanner;
}
