// Reading vitest's JSON report for `npm test`: which suites were skipped and why. A suite skipped for something the
// machine lacks carries the reason in its title (server/test-support/needs.ts); any other skip says it gave none.
import path from "node:path";
import { count } from "../server/domain/plural";
import { readSkipMark } from "../server/test-support/skip-mark";

export interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  testResults: {
    name: string;
    status: string;
    message?: string;
    assertionResults?: { ancestorTitles: string[]; title: string; status: string }[];
  }[];
}

const stripMark = (title: string) => title.replace(/\s*\[skipped: [^\]]*\]/, "");

/** One line per skipped suite (or test), e.g. "a.test.ts › sandbox (12 tests): needs bubblewrap: ... missing". */
export function skippedSuites(report: VitestReport, repo: string): string[] {
  const groups = new Map<string, { tests: number; why: string }>();
  for (const file of report.testResults) {
    for (const t of file.assertionResults ?? []) {
      if (t.status !== "skipped" && t.status !== "pending" && t.status !== "todo") continue;
      const titles = [...t.ancestorTitles, t.title];
      const at = titles.findIndex((x) => readSkipMark(x) !== null);
      const mark = at >= 0 ? readSkipMark(titles[at]!) : null;
      const where = [path.relative(repo, file.name), ...(at >= 0 ? titles.slice(0, at + 1) : titles).map(stripMark)].join(" › ");
      const g = groups.get(where) ?? { tests: 0, why: mark ? `needs ${mark.need}: ${mark.missing}` : "no reason given" };
      g.tests++;
      groups.set(where, g);
    }
  }
  return [...groups].map(([where, g]) => `${where} (${count(g.tests, "test")}): ${g.why}`);
}
