// The doctor's quick fixes (types.ts `quickFix`) for allowed-tools, as a text edit of SKILL.md that keeps everything else as written:
// a tool pattern added to, or removed from, the allowed-tools line (or its YAML list). Null when the file has a
// shape this does not touch safely (no frontmatter, a folded value).
import type { Finding } from "./types";

export type ToolFix = NonNullable<Finding["quickFix"]>;

/** Splits "Read Bash(git add *) Write" into its patterns: whitespace or commas outside parentheses. */
export function splitPatterns(value: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = "";
  for (const ch of value) {
    if (ch === "(") depth++;
    if (ch === ")") depth = Math.max(0, depth - 1);
    if (depth === 0 && (ch === "," || /\s/.test(ch))) {
      if (cur) out.push(cur);
      cur = "";
    } else cur += ch;
  }
  if (cur) out.push(cur);
  return out;
}

export function applyToolFix(text: string, fix: ToolFix): string | null {
  const nl = text.includes("\r\n") ? "\r\n" : "\n";
  const lines = text.split(/\r?\n/);
  if (lines[0]?.trim() !== "---") return null;
  const close = lines.findIndex((l, i) => i > 0 && l.trim() === "---");
  if (close < 0) return null;
  const at = lines.findIndex((l, i) => i > 0 && i < close && /^allowed-tools\s*:/.test(l));
  if (at < 0) {
    if (!("addTool" in fix)) return null;
    lines.splice(close, 0, `allowed-tools: ${fix.addTool}`);
    return lines.join(nl);
  }
  const value = lines[at]!.replace(/^allowed-tools\s*:\s*/, "");
  if (value.trim() === "" || value.trim() === "[]") {
    // A YAML list below the key ("  - Read").
    const items: number[] = [];
    for (let i = at + 1; i < close && /^\s+-\s/.test(lines[i]!); i++) items.push(i);
    if ("addTool" in fix) {
      if (items.some((i) => lines[i]!.replace(/^\s+-\s+/, "").trim() === fix.addTool)) return text;
      if (value.trim() === "[]") lines[at] = `allowed-tools: ${fix.addTool}`;
      else lines.splice((items.at(-1) ?? at) + 1, 0, `  - ${fix.addTool}`);
      return lines.join(nl);
    }
    const hit = items.find((i) => lines[i]!.replace(/^\s+-\s+/, "").trim().replace(/^["']|["']$/g, "") === fix.removeTool);
    if (hit === undefined) return null;
    lines.splice(hit, 1);
    return lines.join(nl);
  }
  if (/^[>|]/.test(value.trim())) return null;
  const quoted = /^(["'])(.*)\1\s*$/.exec(value.trim());
  const patterns = splitPatterns(quoted ? quoted[2]! : value);
  let next: string[];
  if ("addTool" in fix) {
    if (patterns.includes(fix.addTool)) return text;
    next = [...patterns, fix.addTool];
  } else {
    if (!patterns.includes(fix.removeTool)) return null;
    next = patterns.filter((p) => p !== fix.removeTool);
  }
  if (!next.length) lines.splice(at, 1);
  else lines[at] = `allowed-tools: ${quoted ? `${quoted[1]}${next.join(" ")}${quoted[1]}` : next.join(" ")}`;
  return lines.join(nl);
}
