// Forbidden-name patterns: a word (matched as a substring) or a /regular expression/. The admin writes the pattern
// but any author picks the name, and RegExp backtracks: /^(a+)+$/ against "aaa…a-x" runs for minutes. So the
// expression is compiled to a small automaton (Thompson's construction) run breadth-first over the name: a match
// costs at most name length × program size, whatever the pattern. Only single characters go to RegExp (one atom
// against one character cannot backtrack), so classes, escapes and flags keep JavaScript's meaning. No node:
// imports: the policies page's preview matches in the browser.

/** Names are matched on their first 128 characters (the longest name a policy accepts; the spec's limit is 64). */
export const NAME_MATCH_LENGTH = 128;
/** Instructions once counted repetitions are expanded; bounds the work per character. */
const MAX_PROGRAM = 2000;
const UNSUPPORTED = "(forbidden-name patterns take no lookarounds or backreferences, so matching never backtracks)";

type Char = { op: "char"; test: (c: string) => boolean };
type Split = { op: "split"; to: [number, number] };
type Jump = { op: "jmp"; to: number };
type Inst = Char | Split | Jump | { op: "assert"; kind: "^" | "$" | "b" | "B" } | { op: "match" };

type Node =
  | { t: "char"; src: string }
  | { t: "assert"; kind: "^" | "$" | "b" | "B" }
  | { t: "seq"; items: Node[] }
  | { t: "alt"; items: Node[] }
  | { t: "rep"; node: Node; min: number; max: number };

export interface CompiledPattern {
  match(name: string): boolean;
}

const QUANT = /^\{(\d+)(?:,(\d*))?\}/;

/** Parses an expression JavaScript has already accepted, so only the shapes matter here, not every error. */
function parse(src: string, unicode: boolean): Node {
  let i = 0;
  const fail = (why: string): never => {
    throw new Error(why);
  };
  const alt = (): Node => {
    const items = [seq()];
    while (src[i] === "|") {
      i++;
      items.push(seq());
    }
    return items.length === 1 ? items[0]! : { t: "alt", items };
  };
  const seq = (): Node => {
    const items: Node[] = [];
    while (i < src.length && src[i] !== "|" && src[i] !== ")") {
      let node = atom();
      for (;;) {
        const c = src[i];
        let min: number, max: number;
        const q = c === "{" ? QUANT.exec(src.slice(i)) : null;
        if (c === "*" || c === "+" || c === "?") [min, max] = [c === "+" ? 1 : 0, c === "?" ? 1 : Infinity];
        else if (q) [min, max] = [Number(q[1]), q[2] === undefined ? Number(q[1]) : q[2] === "" ? Infinity : Number(q[2])];
        else break;
        i += q ? q[0].length : 1;
        if (src[i] === "?") i++; // lazy or greedy: the same for whether a name matches
        if (node.t === "assert") fail("has nothing to repeat");
        node = { t: "rep", node, min, max };
      }
      items.push(node);
    }
    return items.length === 1 ? items[0]! : { t: "seq", items };
  };
  const atom = (): Node => {
    const c = src[i]!;
    if (c === "(") {
      i++;
      if (src[i] === "?") {
        if (src.startsWith("?:", i)) i += 2;
        else if (/^\?<[A-Za-z_$]/.test(src.slice(i))) i = src.indexOf(">", i) + 1;
        else fail(`uses a lookaround or another special group ${UNSUPPORTED}`);
      }
      const inner = alt();
      if (src[i] !== ")") fail("has an unclosed group");
      i++;
      return inner;
    }
    if (c === "^" || c === "$") {
      i++;
      return { t: "assert", kind: c };
    }
    if (c === "[") {
      // As in JavaScript, the first ] closes the class ([] matches nothing, [^] any character).
      const start = i++;
      if (src[i] === "^") i++;
      while (i < src.length && src[i] !== "]") i += src[i] === "\\" ? 2 : 1;
      i++;
      return { t: "char", src: src.slice(start, i) };
    }
    if (c === "\\") {
      const e = src[i + 1] ?? "";
      if (e === "b" || e === "B") {
        i += 2;
        return { t: "assert", kind: e };
      }
      if (/[1-9]/.test(e) || e === "k") fail(`uses a backreference ${UNSUPPORTED}`);
      const len = /^\\(?:x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|u\{[0-9A-Fa-f]+\}|c[A-Za-z]|[pP]\{[^}]*\}|[\s\S])/.exec(src.slice(i))?.[0].length ?? 2;
      const s = src.slice(i, i + len);
      i += len;
      return { t: "char", src: s };
    }
    if (c === "*" || c === "+" || c === "?" || (c === "{" && QUANT.test(src.slice(i)))) fail("has nothing to repeat");
    const cp = String.fromCodePoint(src.codePointAt(i)!);
    const one = unicode ? cp : c;
    i += one.length;
    return { t: "char", src: /[$()*+.?[\\\]^{|}/]/.test(one) && one !== "." ? `\\${one}` : one };
  };
  const node = alt();
  if (i < src.length) fail("has an unmatched )");
  return node;
}

/** The automaton of a parsed expression; `atomFlags` are the flags one character is tested with. */
function compile(root: Node, atomFlags: string): Inst[] {
  const prog: Inst[] = [];
  const tests = new Map<string, (c: string) => boolean>();
  const push = (inst: Inst) => {
    if (prog.length >= MAX_PROGRAM) throw new Error(`is too large once its repetitions are written out (more than ${MAX_PROGRAM} steps): use smaller counts`);
    prog.push(inst);
    return prog.length - 1;
  };
  const emit = (n: Node): void => {
    switch (n.t) {
      case "char": {
        let test = tests.get(n.src);
        if (!test) {
          const re = new RegExp(`^(?:${n.src})$`, atomFlags);
          tests.set(n.src, (test = (c) => re.test(c)));
        }
        push({ op: "char", test });
        return;
      }
      case "assert":
        push({ op: "assert", kind: n.kind });
        return;
      case "seq":
        n.items.forEach(emit);
        return;
      case "alt": {
        // split(first, rest); first; jmp end; rest…: each branch but the last jumps to the end.
        const ends: Jump[] = [];
        n.items.forEach((item, k) => {
          const last = k === n.items.length - 1;
          const split: Split = { op: "split", to: [0, 0] };
          if (!last) {
            push(split);
            split.to[0] = prog.length;
          }
          emit(item);
          if (last) return;
          const end: Jump = { op: "jmp", to: 0 };
          push(end);
          ends.push(end);
          split.to[1] = prog.length;
        });
        for (const end of ends) end.to = prog.length;
        return;
      }
      case "rep": {
        for (let k = 0; k < n.min; k++) emit(n.node);
        if (n.max === Infinity) {
          const split: Split = { op: "split", to: [0, 0] };
          const loop = push(split);
          split.to[0] = prog.length;
          emit(n.node);
          push({ op: "jmp", to: loop });
          split.to[1] = prog.length;
          return;
        }
        for (let k = n.min; k < n.max; k++) {
          const split: Split = { op: "split", to: [0, 0] };
          push(split);
          split.to[0] = prog.length;
          emit(n.node);
          split.to[1] = prog.length;
        }
        return;
      }
    }
  };
  emit(root);
  push({ op: "match" });
  return prog;
}

const isWord = (c: string | undefined) => c !== undefined && /\w/.test(c);
const isLineEnd = (c: string | undefined) => c !== undefined && /[\n\r\u2028\u2029]/.test(c);

/** Whether the automaton matches anywhere in `chars` (one list of threads per position, each instruction once). */
function run(prog: Inst[], chars: string[], multiline: boolean): boolean {
  const seen = new Int32Array(prog.length).fill(-1);
  let current: number[] = [];
  const holds = (kind: "^" | "$" | "b" | "B", at: number) => {
    if (kind === "^") return at === 0 || (multiline && isLineEnd(chars[at - 1]));
    if (kind === "$") return at === chars.length || (multiline && isLineEnd(chars[at]));
    return (isWord(chars[at - 1]) !== isWord(chars[at])) === (kind === "b");
  };
  // Follows jumps, splits and assertions from pc; false once a thread reaches the match.
  const add = (list: number[], pc: number, at: number, stamp: number): boolean => {
    const stack = [pc];
    while (stack.length) {
      const p = stack.pop()!;
      if (seen[p] === stamp) continue;
      seen[p] = stamp;
      const inst = prog[p]!;
      if (inst.op === "match") return true;
      if (inst.op === "jmp") stack.push(inst.to);
      else if (inst.op === "split") stack.push(inst.to[1], inst.to[0]);
      else if (inst.op === "assert") {
        if (holds(inst.kind, at)) stack.push(p + 1);
      } else list.push(p);
    }
    return false;
  };
  for (let at = 0; ; at++) {
    // A new thread at every position: the expression may match anywhere in the name, as RegExp.test does.
    if (add(current, 0, at, at)) return true;
    if (at === chars.length) return false;
    const next: number[] = [];
    for (const p of current) {
      if ((prog[p] as Char).test(chars[at]!) && add(next, p + 1, at + 1, at + 1)) return true;
    }
    current = next;
  }
}

/**
 * Compiles a forbidden-name pattern, or throws an Error whose message completes "<pattern> …" (not a valid
 * regular expression, a lookaround, too large).
 */
export function compileNamePattern(pattern: string): CompiledPattern {
  const m = /^\/(.*)\/([a-z]*)$/.exec(pattern);
  if (!m) return { match: (name) => name.slice(0, NAME_MATCH_LENGTH).includes(pattern) };
  const [, body, flags] = m as unknown as [string, string, string];
  try {
    new RegExp(body, flags);
  } catch (e) {
    throw new Error(`is not a valid regular expression: ${(e as Error).message}`);
  }
  if (flags.includes("v")) throw new Error("uses the v flag, which forbidden-name patterns do not support (use u)");
  const unicode = flags.includes("u");
  // g, y and d only change what a RegExp object remembers or reports, not whether a name matches.
  const prog = compile(parse(body, unicode), [..."isu"].filter((f) => flags.includes(f)).join(""));
  const multiline = flags.includes("m");
  return {
    match(name) {
      const head = name.slice(0, NAME_MATCH_LENGTH * 2); // enough code units for 128 code points
      return run(prog, (unicode ? Array.from(head) : head.split("")).slice(0, NAME_MATCH_LENGTH), multiline);
    },
  };
}
