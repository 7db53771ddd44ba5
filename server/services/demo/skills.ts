// Demo skills, written for OmniForge to show what the console is for: one name in three layers (an
// override), a skill with scripts/ and references/, restricted tools, a plugin, and one broken file.
export interface DemoFile {
  path: string;
  content: string;
  mode?: number;
}
export interface DemoSkill {
  layer: "enterprise" | "personal" | "project" | "plugin";
  plugin?: string;
  dir: string;
  files: DemoFile[];
}

const codeReviewEnterprise = `---
name: code-review
description: Review a code change against the company engineering checklist (security, tests, naming, error handling). Use when someone asks for a review of a diff, a pull request or a file.
allowed-tools: Read Grep Glob
tags: [engineering, compliance]
metadata:
  owner: platform-engineering
  version: "3.1"
---
# Code review (company checklist)

This is the organisation-wide review procedure. It overrides personal and project variants so every
review checks the same things.

1. Read the changed files. Do not run or modify anything: this skill may only read.
2. Go through the checklist in [the checklist](references/CHECKLIST.md), in order.
3. Report findings grouped as **blocking**, **should fix** and **nit**, each with file and line.
4. End with a one-line verdict: approve, approve with comments, or request changes.
`;

const checklist = `# Review checklist

- Secrets: no keys, tokens or passwords in code, config or tests.
- Input: every external input validated; errors returned, not swallowed.
- Tests: new behaviour has a test that would fail without the change.
- Names: functions say what they do; no abbreviations a newcomer would not know.
- Errors: messages say what went wrong and what to do next.
`;

const codeReviewProject = `---
name: code-review
description: Team variant of code review that also checks our API naming conventions. Use for reviews in this repository.
priority: 5
tags: [engineering]
---
# Code review (team variant)

Review the change with the team's API conventions in mind: plural resource names, kebab-case URLs,
and ISO 8601 timestamps. This definition is shadowed by the enterprise one, so agents never get it.
`;

const codeReviewPersonal = `---
name: code-review
description: My own short review routine, focused on readability. Use when I ask for a quick look.
---
# Quick review

Skim the change and point out the three things that would most improve readability.
`;

const releaseNotes = `---
name: release-notes
description: Draft release notes from the list of merged changes, grouped by kind (features, fixes, breaking). Use when preparing a release or a changelog entry.
allowed-tools: Read Bash(python3 scripts/*) Bash(bash scripts/*)
tags: [release, writing]
---
# Release notes

1. Collect the changes: run \`python3 scripts/collect_changes.py\` (it prints one change per line,
   prefixed with its kind).
2. Follow the tone and structure in [the style guide](references/STYLE.md).
3. Put breaking changes first, with a migration hint for each.

\`\`\`bash
python3 scripts/collect_changes.py
\`\`\`
`;

const collectChanges = `#!/usr/bin/env python3
"""Prints the changes of the demo release, one per line, as kind: summary."""

CHANGES = [
    ("feature", "Skills can be imported from a .zip archive"),
    ("fix", "Saving a skill no longer drops a trailing newline"),
    ("breaking", "The 'legacy' disclosure mode was removed; use 'tool'"),
]

for kind, summary in CHANGES:
    print(f"{kind}: {summary}")
`;

const releaseStyle = `# Release notes style

- One line per change, starting with a verb in the past tense.
- Group under: Breaking changes, Features, Fixes.
- Link the issue number when there is one.
`;

const dailyStandup = `---
name: daily-standup
description: Turn my notes into a three-part standup update (yesterday, today, blockers). Use when I paste notes and ask for a standup.
---
# Daily standup

Rewrite the notes as three short lists: **Yesterday**, **Today**, **Blockers**. Keep each item under
fifteen words. If there are no blockers, say "none".
`;

const csvInsights = `---
name: csv-insights
description: Summarise a CSV file (row count, columns, numeric ranges) with a bundled script. Use when someone asks what is in a CSV file.
allowed-tools: Read Bash(python3 scripts/*)
tags: [data]
---
# CSV insights

Run \`python3 scripts/summarize.py <file.csv>\` with the file the user named. It prints the row count, the
columns and, for numeric columns, the minimum and maximum. Explain the result in two or three sentences.
`;

const summarize = `#!/usr/bin/env python3
"""Summarise a CSV file: rows, columns, numeric min and max."""
import csv
import sys

if len(sys.argv) < 2:
    print("usage: summarize.py FILE.csv", file=sys.stderr)
    sys.exit(2)

with open(sys.argv[1], newline="") as fh:
    rows = list(csv.DictReader(fh))

print(f"rows: {len(rows)}")
if rows:
    print("columns: " + ", ".join(rows[0].keys()))
    for col in rows[0].keys():
        try:
            values = [float(r[col]) for r in rows]
        except (TypeError, ValueError):
            continue
        print(f"{col}: min {min(values)} max {max(values)}")
`;

const brokenSkill = `---
name: broken-frontmatter
description: "This description never closes its quote
tags: [demo]
---
# Broken on purpose

The frontmatter above has an unclosed quote, so this skill cannot load. The console shows it with
its error instead of hiding it.
`;

const gitHelper = `---
name: git-helper
description: Answer questions about the repository history with read-only git commands. Use when asked who changed what, or when.
allowed-tools:
  - Bash(git log:*)
  - Bash(git show:*)
  - Read
tags: [engineering, git]
---
# Git helper

Use only \`git log\` and \`git show\` to answer. Never run commands that change the repository.
`;

export const DEMO_SKILLS: DemoSkill[] = [
  {
    layer: "enterprise",
    dir: "code-review",
    files: [
      { path: "SKILL.md", content: codeReviewEnterprise },
      { path: "references/CHECKLIST.md", content: checklist },
    ],
  },
  { layer: "personal", dir: "code-review", files: [{ path: "SKILL.md", content: codeReviewPersonal }] },
  { layer: "personal", dir: "daily-standup", files: [{ path: "SKILL.md", content: dailyStandup }] },
  { layer: "project", dir: "code-review", files: [{ path: "SKILL.md", content: codeReviewProject }] },
  {
    layer: "project",
    dir: "release-notes",
    files: [
      { path: "SKILL.md", content: releaseNotes },
      { path: "scripts/collect_changes.py", content: collectChanges, mode: 0o755 },
      { path: "references/STYLE.md", content: releaseStyle },
    ],
  },
  { layer: "project", dir: "git-helper", files: [{ path: "SKILL.md", content: gitHelper }] },
  { layer: "project", dir: "broken-frontmatter", files: [{ path: "SKILL.md", content: brokenSkill }] },
  {
    layer: "plugin",
    plugin: "data-pack",
    dir: "csv-insights",
    files: [
      { path: "SKILL.md", content: csvInsights },
      { path: "scripts/summarize.py", content: summarize, mode: 0o755 },
    ],
  },
];
