// Security checks on shell commands (scripts/*.sh and the command strings Python and JavaScript scripts pass
// to a shell). Works on parsed commands (shell.ts), never on raw text, so quotes and comments do not fool it.
import { noBudget, type Budget } from "./budget";
import { finding } from "./checks";
import { CREDENTIAL_PATH, FETCHERS, INTERPRETERS, isDangerousRemoveTarget, isOutsidePath, LONG_BASE64, NETWORK, PERSISTENCE_PATH, SECRET_ENV } from "./patterns";
import { commandName, parseShellLine, shellLines, type ShellCommand } from "./shell";
import type { Finding } from "./types";

/** What a file does overall, for checks that need two facts (credentials read + network use). */
export interface FileFacts {
  /** Variables the script sets itself to a non-empty value (rm -rf "$TMP" after TMP=$(mktemp -d) is no finding). */
  assigned: Set<string>;
  credentialReads: { line: number; snippet: string; what: string }[];
  network: boolean;
  /** Credentials sent directly (piped into or passed as data to a network command). */
  sent: { line: number; snippet: string; what: string }[];
}

export const newFacts = (): FileFacts => ({ assigned: new Set(), credentialReads: [], network: false, sent: [] });

const ASSIGNMENT = /^(?:(?:local|export|readonly|declare)\s+)?([A-Za-z_][A-Za-z0-9_]*)=(?=\S)(?!["']{2}(?:\s|$))/;

const isShell = (name: string) => INTERPRETERS.has(name);

/**
 * The nearest command upstream of a pipe (`… | c`) that passes the test. Answers are remembered per command,
 * so a line of 50,000 pipes is walked once, not once per command (that took minutes).
 */
function upstreamFinder(test: (c: ShellCommand) => boolean): (c: ShellCommand) => ShellCommand | null {
  const nearest = new Map<ShellCommand, ShellCommand | null>();
  return (c) => {
    const unknown: ShellCommand[] = [];
    let p = c.pipedFrom;
    while (p && !nearest.has(p)) {
      unknown.push(p);
      p = p.pipedFrom;
    }
    let found = p ? nearest.get(p)! : null;
    for (let k = unknown.length - 1; k >= 0; k--) {
      if (test(unknown[k]!)) found = unknown[k]!;
      nearest.set(unknown[k]!, found);
    }
    return c.pipedFrom ? nearest.get(c.pipedFrom)! : null;
  };
}

const isFetch = (c: ShellCommand) => FETCHERS.has(commandName(c).name);
const isDecode = (c: ShellCommand) => {
  const { name, args } = commandName(c);
  return (name === "base64" && args.some((a) => a === "-d" || a === "--decode" || a === "-D")) || name === "xxd" || (name === "openssl" && args.includes("base64") && args.includes("-d"));
};

function hasRecursiveForce(args: string[]): boolean {
  let r = false;
  let f = false;
  for (const a of args) {
    if (a === "--recursive") r = true;
    else if (a === "--force") f = true;
    else if (/^-[a-zA-Z]+$/.test(a)) {
      if (/[rR]/.test(a)) r = true;
      if (a.includes("f")) f = true;
    }
  }
  return r && f;
}

/** Header values (-H "Authorization: Bearer $TOKEN") use a token with its own service: not a leak. */
function dataArgs(args: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "-H" || a === "--header") {
      i++;
      continue;
    }
    if (a.startsWith("-H") || a.startsWith("--header=")) continue;
    out.push(a);
  }
  return out;
}

/** Findings for the commands of one logical line. */
export function checkShellCommands(cmds: ShellCommand[], file: string, line: number, snippet: string, facts: FileFacts): Finding[] {
  const out: Finding[] = [];
  const seen = new Set<string>();
  const add = (f: Finding) => {
    if (seen.has(f.code)) return;
    seen.add(f.code);
    out.push(f);
  };
  const fetchUpstream = upstreamFinder(isFetch);
  const decodeUpstream = upstreamFinder(isDecode);
  const credentialUpstream = upstreamFinder((p) => p.argv.some((w) => CREDENTIAL_PATH.test(" " + w)));
  const decodedInto = new Set(cmds.filter(isDecode).map((d) => d.parent));
  for (const c of cmds) {
    const { name, args } = commandName(c);
    const raw0 = commandName(c, false).name;
    // Download and run: curl … | sh, sh -c "$(curl …)", bash <(curl …), eval "$(wget -O- …)".
    if (isShell(name) && fetchUpstream(c)) add(finding("scripts.download-exec", `downloaded code is piped into ${name}`, file, line, snippet));
    if (isFetch(c) && c.parent && isShell(commandName(c.parent).name)) {
      add(finding("scripts.download-exec", `downloaded code is run by ${commandName(c.parent).name}`, file, line, snippet));
    }
    // rm -rf on / , ~ or a variable.
    if (name === "rm" && hasRecursiveForce(args)) {
      const target = args.find((a) => !a.startsWith("-") && isDangerousRemoveTarget(a) && !facts.assigned.has(/^\$\{?([A-Za-z_][A-Za-z0-9_]*)/.exec(a)?.[1] ?? ""));
      if (target) add(finding("scripts.rm-rf", `rm -rf on "${target}"`, file, line, snippet));
    }
    // Persistence: crontab installs, writes to shell rc files and autostart places, service enablement.
    const targets = [...c.redirects.filter((r) => r.op.startsWith(">")).map((r) => r.target)];
    if (name === "tee") targets.push(...args.filter((a) => !a.startsWith("-")));
    if ((name === "cp" || name === "mv" || name === "install" || name === "ln") && args.filter((a) => !a.startsWith("-")).length >= 2) {
      targets.push(args.filter((a) => !a.startsWith("-")).at(-1)!);
    }
    const persistent = targets.find((t) => PERSISTENCE_PATH.test(t));
    if (persistent) add(finding("scripts.persistence", `writes to "${persistent}", which runs at every login or on a schedule`, file, line, snippet));
    else if (name === "crontab" && !(args.length === 1 && args[0] === "-l")) add(finding("scripts.persistence", "installs a crontab entry", file, line, snippet));
    else if ((name === "systemctl" && args.includes("enable")) || (name === "launchctl" && (args.includes("load") || args.includes("bootstrap")))) {
      add(finding("scripts.persistence", `${name} ${args[0] ?? ""} makes a service start on its own`, file, line, snippet));
    }
    // Writes outside the working folder (rc files are reported as persistence instead).
    const outside = persistent ? undefined : targets.find((t) => isOutsidePath(t) && !CREDENTIAL_PATH.test(t));
    if (outside) add(finding("scripts.write-outside", `writes to "${outside}", outside the working folder`, file, line, snippet));
    // Privilege.
    if (raw0 === "sudo" || raw0 === "doas" || name === "su") add(finding("scripts.privilege", `runs ${raw0 === "sudo" || raw0 === "doas" ? raw0 : name} to gain root`, file, line, snippet));
    if (name === "chmod" && args.some((a) => /^(?:0?777|[ugoa]*\+rwx|o\+w|a\+w)$/.test(a))) add(finding("scripts.privilege", "chmod makes files writable by everyone", file, line, snippet));
    // Obfuscation: eval of a built string; base64 decoded and executed.
    if (name === "eval" && args.some((a) => a.includes("$"))) add(finding("scripts.obfuscation", "eval runs a string built at run time", file, line, snippet));
    if (isShell(name) && (decodeUpstream(c) || decodedInto.has(c))) {
      add(finding("scripts.obfuscation", "decoded data is executed", file, line, snippet));
    }
    if (isDecode(c) && c.parent && isShell(commandName(c.parent).name)) add(finding("scripts.obfuscation", "decoded data is executed", file, line, snippet));
    if (isShell(name) && args.some((a) => LONG_BASE64.test(a))) add(finding("scripts.obfuscation", "a long encoded blob is executed", file, line, snippet));
    // Credentials: reads, and whether they are sent.
    const words = [...c.argv, ...c.redirects.filter((r) => r.op === "<").map((r) => r.target)];
    const cred = words.find((w) => CREDENTIAL_PATH.test(" " + w));
    if (NETWORK.has(name)) {
      facts.network = true;
      const leaked = dataArgs(args).find((a) => SECRET_ENV.test(a) || CREDENTIAL_PATH.test(" " + a));
      if (leaked) facts.sent.push({ line, snippet, what: leaked });
      const from = credentialUpstream(c);
      if (from) facts.sent.push({ line, snippet, what: from.argv.find((w) => CREDENTIAL_PATH.test(" " + w))! });
    }
    if (cred && !NETWORK.has(name)) facts.credentialReads.push({ line, snippet, what: cred });
  }
  return out;
}

/** One shell command string (from a script line or a Python/JS call). */
export function checkShellText(text: string, file: string, line: number, facts: FileFacts): Finding[] {
  return checkShellCommands(parseShellLine(text), file, line, text, facts);
}

/** Credential findings of a whole file, once its lines were read. */
export function credentialFindings(file: string, facts: FileFacts): Finding[] {
  if (facts.sent.length) {
    const s = facts.sent[0]!;
    return [finding("scripts.credential-exfil", `sends "${s.what}" over the network`, file, s.line, s.snippet)];
  }
  if (!facts.credentialReads.length) return [];
  const r = facts.credentialReads[0]!;
  return facts.network
    ? [finding("scripts.credential-exfil", `reads "${r.what}" and the script also sends data over the network`, file, r.line, r.snippet)]
    : [finding("scripts.credential-read", `reads "${r.what}"`, file, r.line, r.snippet)];
}

/**
 * Lines that can hold a finding or a fact: a redirection, pipe or substitution, a long blob, or a word some
 * check looks at. Other lines (most of a script) are not tokenized: tokenizing is the scan's main cost.
 */
const WORTH_PARSING = /[>|`]|\$\(|<\(|[A-Za-z0-9+/]{120}|\b(?:curl|wget|fetch|https?|aria2c|nc|ncat|netcat|scp|sftp|ftp|telnet|socat|rsync|ssh|rm|tee|cp|mv|install|ln|crontab|systemctl|launchctl|sudo|doas|su|chmod|eval|base64|xxd|openssl|source|sh|bash|zsh|dash|ksh|fish|python3?|perl|ruby|node|php)\b|\.(?:ssh|aws|netrc|git-credentials|docker|kube|config|pgpass|npmrc|pypirc|gnupg)\b|id_(?:rsa|ed25519|ecdsa)|TOKEN|SECRET|API_?KEY|PASSW|ACCESS_KEY|PRIVATE_KEY|CREDENTIAL/;

/** A shell script's findings. */
export function scanShell(text: string, file: string, budget: Budget = noBudget()): Finding[] {
  const facts = newFacts();
  const out: Finding[] = [];
  const lines = shellLines(text);
  for (const l of lines) {
    const a = ASSIGNMENT.exec(l.text);
    if (a) facts.assigned.add(a[1]!);
  }
  for (const l of lines) {
    if (budget.spent(`${file} line ${l.line}`)) break;
    if (WORTH_PARSING.test(l.text)) out.push(...checkShellText(l.text, file, l.line, facts));
  }
  out.push(...credentialFindings(file, facts));
  return out;
}
