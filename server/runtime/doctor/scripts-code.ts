// Security checks on Python and JavaScript/TypeScript scripts. Comments (and Python docstrings) are blanked
// first, keeping line numbers, so a comment that mentions `curl | sh` is no finding. Command strings passed to
// a shell (os.system, subprocess, child_process) are parsed as shell and checked like shell scripts.
import { MAX_SCANNED_LINE, noBudget, type Budget } from "./budget";
import { finding } from "./checks";
import { CREDENTIAL_PATH, isOutsidePath, PERSISTENCE_PATH } from "./patterns";
import { checkShellCommands, credentialFindings, newFacts, type FileFacts } from "./scripts-shell";
import { parseShellLine } from "./shell";
import type { Finding } from "./types";

export type CodeLanguage = "python" | "js";

const blank = (s: string) => s.replace(/[^\n]/g, " ");

/** The text with comments (and, for Python, triple-quoted strings) replaced by spaces; strings kept. */
export function stripComments(text: string, lang: CodeLanguage): string {
  let out = "";
  let i = 0;
  const n = text.length;
  while (i < n) {
    const ch = text[i]!;
    if (lang === "python" && (text.startsWith('"""', i) || text.startsWith("'''", i))) {
      const q = text.slice(i, i + 3);
      const end = text.indexOf(q, i + 3);
      const stop = end < 0 ? n : end + 3;
      // Keep the quotes, blank the content: exec("""…""") still reads as a literal, a docstring says nothing.
      out += stop - i >= 6 ? q + blank(text.slice(i + 3, stop - 3)) + q : blank(text.slice(i, stop));
      i = stop;
      continue;
    }
    if ((lang === "python" && ch === "#") || (lang === "js" && ch === "/" && text[i + 1] === "/")) {
      const end = text.indexOf("\n", i);
      const stop = end < 0 ? n : end;
      out += blank(text.slice(i, stop));
      i = stop;
      continue;
    }
    if (lang === "js" && ch === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      const stop = end < 0 ? n : end + 2;
      out += blank(text.slice(i, stop));
      i = stop;
      continue;
    }
    if (ch === '"' || ch === "'" || (lang === "js" && ch === "`")) {
      let j = i + 1;
      while (j < n && text[j] !== ch && (ch === "`" || text[j] !== "\n")) j += text[j] === "\\" ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    out += ch;
    i++;
  }
  return out;
}

const STRING = /(?:\b[rRbBuUfF]{0,2})?("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`)/g;

/** String literals of a stretch of code, unquoted; f-string / template holes become $name. */
function literals(code: string): string[] {
  const out: string[] = [];
  for (const m of code.matchAll(STRING)) {
    const s = m[1]!.slice(1, -1);
    out.push(s.replace(/\$\{([^}]*)\}/g, "$$$1").replace(/\{([A-Za-z_][\w.]*)[^}]*\}/g, "$$$1"));
  }
  return out;
}

const PY_SHELL = /\b(?:os\.system|os\.popen|subprocess\.(?:run|call|check_call|check_output|Popen|getoutput|getstatusoutput))\s*\(/;
const JS_SHELL = /(?:(?<![\w.])|\b(?:child_process|cp|childProcess|proc)\.)(?:exec|execSync|spawn|spawnSync|execFile|execFileSync)\s*\(/;

/** The argument text of the call starting at `from` (balanced parentheses, up to a few lines). */
function callArgs(code: string, from: number): string {
  let depth = 0;
  for (let i = code.indexOf("(", from); i < code.length && i - from < 2000; i++) {
    const ch = code[i];
    if (ch === "(") depth++;
    else if (ch === ")" && --depth === 0) return code.slice(code.indexOf("(", from) + 1, i);
  }
  return code.slice(from, from + 400);
}

/** The shell command a call runs: a list form becomes words (identifiers as $name), a string is a command line. */
function commandOf(args: string): string | null {
  const t = args.trim();
  const list = /^\[([^\]]*)\]/.exec(t);
  const words = (inner: string) =>
    inner
      .split(",")
      .map((w) => w.trim())
      .filter(Boolean)
      .map((w) => (/^[rbuf]{0,2}["'`]/i.test(w) ? literals(w)[0] ?? "" : "$" + w.replace(/\W+/g, "_")))
      .map((w) => (/[\s'"]/.test(w) ? `'${w.replace(/'/g, "")}'` : w));
  if (list) return words(list[1]!).join(" ");
  const first = literals(t.split(/,(?![^[]*\])/)[0] ?? "")[0];
  if (first === undefined) return null;
  // spawn("rm", ["-rf", dir]): program then argument list.
  const rest = /^[^,]+,\s*\[([^\]]*)\]/.exec(t);
  return rest ? [first, ...words(rest[1]!)].join(" ") : first;
}

const LINE_CHECKS: Record<CodeLanguage, { code: Parameters<typeof finding>[0]; re: RegExp; message: string }[]> = {
  python: [
    { code: "scripts.download-exec", re: /(?<![\w.])(?:exec|eval)\s*\([^)]*(?:urlopen|requests\.get|urllib|httpx\.get)/, message: "code downloaded at run time is executed" },
    { code: "scripts.obfuscation", re: /(?<![\w.])(?:exec|eval)\s*\(\s*(?![rbuRBU]?["')])/, message: "exec/eval runs a string built at run time" },
    { code: "scripts.obfuscation", re: /(?:b64decode|decodebytes|codecs\.decode|zlib\.decompress|marshal\.loads)[\s\S]*?(?:exec|eval|compile)\s*\(|(?:exec|eval|compile)\s*\([^)]*(?:b64decode|decodebytes|marshal\.loads|zlib\.decompress)/, message: "decoded data is executed" },
    { code: "scripts.rm-rf", re: /rmtree\s*\(\s*(?:["'](?:\/|~\/?)["']|os\.path\.expanduser\(\s*["']~\/?["']\s*\)|Path\.home\(\)|os\.environ\[["']HOME["']\])\s*[,)]/, message: "deletes / or the home folder recursively" },
    { code: "scripts.privilege", re: /chmod\s*\([^)]*0o?777|os\.set(?:e?uid)\s*\(\s*0\s*\)/, message: "makes files writable by everyone or switches to root" },
  ],
  js: [
    { code: "scripts.download-exec", re: /(?<![\w.])(?:eval|Function)\s*\([^)]*(?:fetch|https?\.get|axios)/, message: "code downloaded at run time is executed" },
    { code: "scripts.obfuscation", re: /(?<![\w.])eval\s*\(\s*(?!["'`)])|new\s+Function\s*\(|vm\.(?:runInNewContext|runInThisContext|runInContext)\s*\(\s*(?!["'`])/, message: "eval/new Function runs a string built at run time" },
    { code: "scripts.obfuscation", re: /Buffer\.from\([^)]*["']base64["']\)[^;]*(?:eval|Function|runIn)|atob\([^)]*\)[^;]*(?:eval|Function)|(?:eval|Function)\s*\([^;]*(?:atob|["']base64["'])/, message: "decoded data is executed" },
    { code: "scripts.rm-rf", re: /(?:rmSync|rmdirSync|rm|rimraf)\s*\(\s*(?:["'](?:\/|~\/?)["']|os\.homedir\(\)|process\.env\.HOME)\s*[,)]/, message: "deletes / or the home folder recursively" },
    { code: "scripts.privilege", re: /chmod(?:Sync)?\s*\([^)]*(?:0o777|["']777["']|511\b)/, message: "makes files writable by everyone" },
  ],
};

const WRITE_CALL: Record<CodeLanguage, RegExp> = {
  python: /(?:open\s*\(\s*([^,()]+(?:\([^()]*\))?)\s*,\s*[rbuRBU]?["'](?:[^"']*[wax+][^"']*)["']|Path\s*\(([^()]+(?:\([^()]*\))?)\)\s*\.write_(?:text|bytes)|shutil\.(?:copy\w*|move)\s*\([^,]+,\s*([^,)]+))/,
  js: /(?:writeFile(?:Sync)?|appendFile(?:Sync)?|createWriteStream)\s*\(\s*([^,)]+(?:\([^()]*\))?)|(?:copyFile(?:Sync)?|symlink(?:Sync)?|cp(?:Sync)?)\s*\([^,]+,\s*([^,)]+(?:\([^()]*\))?)/,
};

const NETWORK_USE: Record<CodeLanguage, RegExp> = {
  python: /\b(?:requests\.(?:get|post|put|patch)|urllib\.request|urlopen|http\.client|httpx|aiohttp|socket\.socket|smtplib|ftplib|paramiko)\b/,
  js: /\bfetch\s*\(|\bhttps?\.(?:request|get)\s*\(|\baxios\b|\bnet\.(?:connect|createConnection)\b|\bXMLHttpRequest\b|\bWebSocket\b/,
};

/** The whole environment serialised: with network use, every token of the user goes out. */
const WHOLE_ENV: Record<CodeLanguage, RegExp> = {
  python: /(?:dict|json\.dumps|str)\s*\(\s*os\.environ\s*\)|os\.environ\.copy\(\)\s*\)|\bdata\s*=\s*os\.environ\b|json\s*=\s*dict\(os\.environ\)/,
  js: /JSON\.stringify\(\s*process\.env\s*\)|body\s*:\s*process\.env\b/,
};

/** Whether an argument written in code names a place outside the working folder. */
function outsideArg(arg: string): string | null {
  const a = arg.trim();
  if (/expanduser|Path\.home\(\)|os\.homedir\(\)|process\.env\.HOME|os\.environ\[["']HOME/.test(a)) return a;
  const lit = literals(a)[0];
  return lit !== undefined && isOutsidePath(lit) ? lit : null;
}

export function scanCode(text: string, file: string, lang: CodeLanguage, budget: Budget = noBudget()): Finding[] {
  const code = stripComments(text, lang);
  const lines = code.split("\n");
  const src = text.split("\n");
  const facts: FileFacts = newFacts();
  const out: Finding[] = [];
  const shellCall = lang === "python" ? PY_SHELL : JS_SHELL;
  let offset = 0;
  for (let i = 0; i < lines.length; i++) {
    const whole = lines[i]!;
    const lineNo = i + 1;
    if (budget.spent(`${file} line ${lineNo}`)) break;
    // The patterns below may read a line once per position they start at: a 500 KB line took minutes.
    const l = whole.length > MAX_SCANNED_LINE ? whole.slice(0, MAX_SCANNED_LINE) : whole;
    if (l !== whole) budget.skipped(`${file} line ${lineNo} is longer than ${MAX_SCANNED_LINE} characters; only its start was read`);
    const snippet = src[i] ?? l;
    const codes = new Set<string>();
    const add = (f: Finding) => {
      if (codes.has(f.code)) return;
      codes.add(f.code);
      out.push(f);
    };
    if (l.trim()) {
      const m = shellCall.exec(l);
      if (m) {
        const cmd = commandOf(callArgs(code, offset + m.index));
        if (cmd) for (const f of checkShellCommands(parseShellLine(cmd), file, lineNo, snippet, facts)) add(f);
      }
      for (const c of LINE_CHECKS[lang]) if (c.re.test(l)) add(finding(c.code, c.message, file, lineNo, snippet));
      const lits = literals(l);
      const persistent = lits.find((s) => PERSISTENCE_PATH.test(s) || /^crontab\b/.test(s));
      if (persistent && /open\s*\(|write|append|copy|symlink|crontab|>>/i.test(l)) {
        add(finding("scripts.persistence", `writes to "${persistent}", which runs at every login or on a schedule`, file, lineNo, snippet));
      } else {
        const w = WRITE_CALL[lang].exec(l);
        const target = w ? outsideArg(w[1] ?? w[2] ?? w[3] ?? "") : null;
        if (target && !CREDENTIAL_PATH.test(" " + target)) add(finding("scripts.write-outside", `writes to "${target}", outside the working folder`, file, lineNo, snippet));
      }
      // A path is one word: "'%s not found in .pypirc'" is a message, not a read.
      const cred = lits.find((s) => !/\s/.test(s.trim()) && CREDENTIAL_PATH.test(" " + s));
      if (cred) facts.credentialReads.push({ line: lineNo, snippet, what: cred });
      if (NETWORK_USE[lang].test(l)) facts.network = true;
      if (WHOLE_ENV[lang].test(l)) facts.credentialReads.push({ line: lineNo, snippet, what: "the whole environment (every token in it)" });
    }
    offset += whole.length + 1;
  }
  out.push(...credentialFindings(file, facts));
  return out;
}
