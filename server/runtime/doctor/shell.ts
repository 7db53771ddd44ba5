// Shell text as the doctor reads it: comments stripped (a `# curl | sh` comment is not a command), lines joined
// at backslash continuations, heredoc bodies skipped (data, not commands), and each line tokenized by
// shell-quote into simple commands with their pipes, redirections and command substitutions.
import { parse, type ParseEntry } from "shell-quote";

export interface ShellCommand {
  /** Words as the shell would pass them ($VAR kept as written, quotes removed). */
  argv: string[];
  /** Redirections: ">", ">>", "<", … with their target word. */
  redirects: { op: string; target: string }[];
  /** The command whose output is piped into this one. */
  pipedFrom?: ShellCommand;
  /** Set when this command runs inside $( ) / backticks / <( ) of the `parent` command. */
  parent?: ShellCommand;
  /** `<( … )` process substitution. */
  processSubstitution?: boolean;
}

export interface ShellLine {
  /** 1-based line where the logical line starts. */
  line: number;
  /** The text without its comment (continuations joined). */
  text: string;
}

const keepVariables = (key: string) => "$" + key;

/** The line up to an unquoted `#` that starts a word. */
export function stripShellComment(line: string): string {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quote) {
      if (ch === "\\" && quote === '"') i++;
      else if (ch === quote) quote = null;
      continue;
    }
    if (ch === "\\") {
      i++;
      continue;
    }
    if (ch === "'" || ch === '"' || ch === "`") quote = ch;
    else if (ch === "#" && (i === 0 || /[\s;&|(]/.test(line[i - 1]!))) return line.slice(0, i);
  }
  return line;
}

const CONTINUED = /\\\s*$/;

/** Logical lines of a shell text: comments stripped, continuations joined, heredoc bodies skipped. */
export function shellLines(text: string, firstLine = 1): ShellLine[] {
  const raw = text.split("\n");
  const out: ShellLine[] = [];
  let heredoc: string | null = null;
  for (let i = 0; i < raw.length; i++) {
    if (heredoc !== null) {
      if (raw[i]!.trim() === heredoc) heredoc = null;
      continue;
    }
    const start = i;
    // Pieces are collected and joined once, and only the newest piece is tested for a trailing backslash:
    // testing and rewriting the growing line made 32,000 continued lines take 24 s.
    const parts: string[] = [];
    let piece = stripShellComment(raw[i]!);
    while (CONTINUED.test(piece) && i + 1 < raw.length) {
      parts.push(piece.replace(CONTINUED, " "));
      piece = stripShellComment(raw[++i]!);
    }
    parts.push(piece);
    const cur = parts.join("");
    const h = /<<-?\s*['"]?([A-Za-z_][A-Za-z0-9_]*)['"]?/.exec(cur);
    if (h) heredoc = h[1]!;
    if (cur.trim()) out.push({ line: firstLine + start, text: cur.trim() });
  }
  return out;
}

const SUBSTITUTION = /\$\(([^()]*(?:\([^()]*\)[^()]*)*)\)|`([^`]*)`/g;

/** Simple commands of one line, in order; substitutions and process substitutions come after their parent. */
export function parseShellLine(text: string, depth = 0): ShellCommand[] {
  let entries: ParseEntry[];
  try {
    entries = parse(text, keepVariables);
  } catch {
    return [];
  }
  const out: ShellCommand[] = [];
  let cur: ShellCommand = { argv: [], redirects: [] };
  let pendingRedirect: string | null = null;
  const stack: ShellCommand[] = [];
  const flush = () => {
    if (cur.argv.length || cur.redirects.length) out.push(cur);
  };
  const word = (w: string) => {
    if (pendingRedirect) {
      cur.redirects.push({ op: pendingRedirect, target: w });
      pendingRedirect = null;
      return;
    }
    cur.argv.push(w);
    if (depth < 3 && (w.includes("$(") || w.includes("`"))) {
      for (const m of w.matchAll(SUBSTITUTION)) {
        const inner = m[1] ?? m[2] ?? "";
        for (const c of parseShellLine(inner, depth + 1)) out.push({ ...c, parent: c.parent ?? cur });
      }
    }
  };
  for (const e of entries) {
    if (typeof e === "string") {
      word(e);
      continue;
    }
    if ("comment" in e) break;
    if ("pattern" in e) {
      word(String(e.pattern));
      continue;
    }
    const op = (e as { op: string }).op;
    if (op === ">" || op === ">>" || op === "<" || op === ">&" || op === "<&" || op === ">|") {
      pendingRedirect = op;
    } else if (op === "<(" || op === ">(") {
      stack.push(cur);
      const parent = cur;
      flush();
      cur = { argv: [], redirects: [], parent, processSubstitution: true };
    } else if (op === ")" && stack.length) {
      flush();
      cur = stack.pop()!;
      // the parent was flushed already when it had words: continue it in place
      const i = out.lastIndexOf(cur); // near the end: only this substitution's commands follow it
      if (i >= 0) out.splice(i, 1);
    } else {
      flush();
      const prev = cur;
      cur = { argv: [], redirects: [] };
      if (op === "|" || op === "|&") {
        cur.pipedFrom = prev;
      }
    }
  }
  flush();
  return out;
}

/** The command name after `env`, `FOO=1` assignments, `sudo`, `exec`, `command`, `nohup`, `time`. */
export function commandName(c: ShellCommand, skipSudo = true): { name: string; args: string[] } {
  let i = 0;
  const a = c.argv;
  while (i < a.length) {
    const w = a[i]!;
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(w) || w === "env" || w === "exec" || w === "command" || w === "nohup" || w === "time") i++;
    else if (skipSudo && (w === "sudo" || w === "doas")) {
      i++;
      while (i < a.length && a[i]!.startsWith("-")) i++;
    } else break;
  }
  const name = (a[i] ?? "").replace(/^.*\//, "");
  return { name, args: a.slice(i + 1) };
}
