// Every check of the doctor in one table: a stable code, its severity, a one-line explanation and how to fix
// it. Family files only say where a finding is; the words and the severity come from here, so the CLI, the
// editor and the report page say the same thing.
import type { DoctorSeverity, Finding } from "./types";

export interface CheckDoc {
  severity: DoctorSeverity;
  /** One line: what the check finds and why it matters. */
  explanation: string;
  fix: string;
}

export const CHECKS = {
  "skill.not-loadable": {
    severity: "high",
    explanation: "SKILL.md is missing, unreadable, refused (a link out of the folder) or has no frontmatter with a name and a description: no agent lists or activates the skill, whatever else it holds.",
    fix: "Run omniforge skill validate on the folder and fix the errors it names.",
  },
  "skill.not-fully-checked": {
    severity: "medium",
    explanation: "The doctor stopped before the end of this skill (its time ran out, or a line was too long to scan): a problem in the part not read would not be reported.",
    fix: "Split very large or generated files out of the skill (data belongs in assets/, not in scripts), or review the part named by hand.",
  },
  "tools.missing": {
    severity: "high",
    explanation: "The body tells the agent to run a command or use a tool that allowed-tools does not allow: under enforcement the skill cannot do what it says.",
    fix: "Add the tool (e.g. Bash(git status:*)) to allowed-tools, or remove the instruction.",
  },
  "tools.unused": {
    severity: "low",
    explanation: "allowed-tools grants a tool that nothing in the body or the scripts uses: broader than needed.",
    fix: "Remove the pattern from allowed-tools, or narrow it to the commands the skill runs.",
  },
  "scripts.download-exec": {
    severity: "high",
    explanation: "A script downloads code and runs it at once (curl … | sh): whatever the server sends runs with the user's rights.",
    fix: "Bundle the code in the skill, or download to a file, verify a checksum, then run it.",
  },
  "scripts.rm-rf": {
    severity: "high",
    explanation: "rm -rf (or an equivalent) on / , ~ or a variable: an empty or wrong variable deletes far more than intended.",
    fix: 'Remove a named path inside the working folder; guard variables with "${VAR:?}".',
  },
  "scripts.write-outside": {
    severity: "medium",
    explanation: "A script writes outside its working folder (an absolute path, ~ or ../): it changes the user's machine beyond the task.",
    fix: "Write under the working folder (or a temporary folder) and let the user copy results elsewhere.",
  },
  "scripts.credential-exfil": {
    severity: "high",
    explanation: "A script reads credentials (~/.ssh, ~/.aws, tokens from the environment) and sends data over the network: a way to steal them.",
    fix: "Do not read credential files; take what is needed as an explicit argument and never send it anywhere but its own service.",
  },
  "scripts.credential-read": {
    severity: "medium",
    explanation: "A script reads credential files (~/.ssh, ~/.aws, ~/.netrc, …) that a skill should not need.",
    fix: "Take what is needed as an explicit argument, or let the user's own tools (git, aws) use their credentials.",
  },
  "scripts.obfuscation": {
    severity: "high",
    explanation: "A script runs code it builds or decodes at run time (eval of a built string, base64 decoded and executed): nobody can review what runs.",
    fix: "Write the code out in the script so a reviewer can read it.",
  },
  "scripts.persistence": {
    severity: "high",
    explanation: "A script installs itself to run later (crontab, shell rc files, launch agents, systemd units): it outlives the task.",
    fix: "Do the work now; tell the user how to schedule it if they want to.",
  },
  "scripts.privilege": {
    severity: "medium",
    explanation: "A script asks for more rights than a task needs (sudo, su, chmod 777).",
    fix: "Run without sudo and with the narrowest permissions (e.g. chmod 755 / 644).",
  },
  "refs.missing": {
    severity: "medium",
    explanation: "The body links to or names a file of the skill that does not exist: the agent will fail to read or run it.",
    fix: "Add the file, or correct the path (relative to SKILL.md).",
  },
  "refs.outside": {
    severity: "medium",
    explanation: "The body points outside the skill folder (an absolute path or ../): the tools refuse it, and it may make an agent read what it should not.",
    fix: "Copy what is needed into the skill and link it relative to SKILL.md (references/guide.md).",
  },
  "refs.unreferenced": {
    severity: "low",
    explanation: "A file in the skill that nothing (SKILL.md or a file it references) mentions: the agent will never find it.",
    fix: "Link it from SKILL.md saying when to read or run it, or remove it.",
  },
  "refs.long-body": {
    severity: "medium",
    explanation: "The body is longer than the format advises and links no reference files: every activation loads all of it.",
    fix: "Move detail into references/ files and link them from SKILL.md with when to read each.",
  },
  "description.no-when": {
    severity: "medium",
    explanation: "The description says what the skill is but not when to use it: the agent routes on the description alone.",
    fix: 'Add when to use it: "Use when the user asks to …".',
  },
  "description.short": {
    severity: "medium",
    explanation: "The description is too short to route on: a few words match too many or too few requests.",
    fix: "Say what the skill does and when to use it in one or two sentences, with the words users type.",
  },
  "description.first-person": {
    severity: "low",
    explanation: "The description speaks in the first person; it is injected into the agent's prompt and should describe the skill in the third person.",
    fix: 'Rewrite in the third person: "Extracts tables from PDFs. Use when …".',
  },
  "description.vendor-word": {
    severity: "low",
    explanation: "The name or description uses a vendor's word that some vendors' upload rules refuse (claude, anthropic, …).",
    fix: "Name what the skill does, not the vendor.",
  },
  "description.overlap": {
    severity: "medium",
    explanation: "Another skill in the catalog competes for the same requests: the ranking cannot tell the two apart.",
    fix: "Say in each description what sets it apart (the inputs, the outcome, when not to use it), with the words users type.",
  },
  "priority.no-effect": {
    severity: "low",
    explanation: "priority is set but no other definition of this name is in the same layer: priority only orders definitions within a layer, so it changes nothing.",
    fix: "Remove priority, or give the definition it should beat in this layer a lower one; to win over another layer, deploy to a higher layer instead.",
  },
} as const satisfies Record<string, CheckDoc>;

export type CheckCode = keyof typeof CHECKS;

export const CHECK_CODES = Object.keys(CHECKS) as CheckCode[];

/** Snippets are shown on one line; long ones are cut. */
export function clip(text: string, max = 160): string {
  const one = text.replace(/\s+/g, " ").trim();
  return one.length > max ? one.slice(0, max - 1) + "…" : one;
}

/** A finding of a check from the table, with its severity and advice. */
export function finding(code: CheckCode, message: string, file: string, line: number, snippet?: string, fix?: string): Finding {
  const doc: CheckDoc = CHECKS[code];
  return { code, severity: doc.severity, message, file, line, ...(snippet ? { snippet: clip(snippet) } : {}), fix: fix ?? doc.fix };
}
