// Words people type for things skills name differently: "spreadsheet" for xlsx, "slides" for pptx, "bug" for
// debugging. Each request word also searches its equivalents, at a lower weight than the word itself, so a
// skill that uses the person's own word still ranks first. Groups are general vocabulary, not skill names: the core
// ones here, the broader everyday vocabulary in vocabulary.ts (weighed apart: `TUNING.vocabulary`).
import { terms } from "./text";
import { VOCABULARY } from "./vocabulary";

/**
 * Each group: words that stand for one another when a person asks for something. A group starting with "=" is
 * near-identity (a format and its names: slides ~ pptx), weighed double; "~" is loose (generic verbs), weighed
 * at 60%; the rest at the normal synonym weight.
 */
const GROUPS: string[][] = [
  ["=", "spreadsheet", "xlsx", "excel", "csv", "sheet", "workbook"],
  ["=", "slides", "slide", "deck", "presentation", "pptx", "powerpoint", "keynote"],
  ["=", "docx", "word document", "word doc", "ms word"],
  ["pdf", "acrobat"],
  ["=", "image", "picture", "photo", "pic", "img", "png", "jpeg", "jpg", "graphic"],
  ["diagram", "flowchart", "chart", "graph", "visualization", "visualisation", "plot"],
  ["=", "gif", "animated", "animation"],
  ["video", "movie", "clip", "footage", "mp4"],
  ["audio", "sound", "recording", "podcast", "voice"],
  ["bug", "debug", "crash", "error", "exception", "fail", "broken", "defect", "regression", "traceback", "flaky", "intermittent", "wrong", "unexpected"],
  ["test", "tests", "testing", "spec", "unittest"],
  ["deploy", "deployment", "ship", "publish", "release", "host", "hosting", "go live"],
  ["=", "repository", "repo", "codebase", "project"],
  ["=", "pull request", "pr", "merge request", "mr"],
  ["branch", "checkout"],
  ["commit", "changeset"],
  ["=", "database", "db", "sql", "rdbms"],
  ["=", "postgres", "postgresql", "psql", "pg"],
  ["=", "kubernetes", "k8s", "kubectl"],
  ["=", "javascript", "js", "node", "nodejs"],
  ["=", "typescript", "ts"],
  ["=", "python", "py"],
  ["~", "performance", "slow", "speed", "fast", "latency", "perf", "optimize", "optimise", "sluggish"],
  ["security", "secure", "vulnerability", "exploit", "malicious", "unsafe", "injection", "cve"],
  ["=", "accessibility", "a11y", "screen reader", "wcag"],
  ["ui", "interface", "frontend", "front end"],
  ["ux", "usability", "user experience"],
  ["=", "forecast", "predict", "prediction", "projection", "extrapolate"],
  ["=", "summarize", "summarise", "summary", "tldr", "recap"],
  ["=", "translate", "translation", "localize", "localise", "i18n"],
  ["=", "email", "mail", "inbox", "gmail", "outlook"],
  ["~", "calendar", "schedule", "meeting", "appointment"],
  ["~", "documentation", "docs", "readme", "wiki", "handbook"],
  ["~", "notes", "note", "minutes", "journal"],
  ["onboard", "onboarding", "tour", "walkthrough", "orient"],
  ["~", "architecture", "structure", "layout", "overview"],
  ["~", "design", "mockup", "wireframe", "layout"],
  ["~", "poster", "flyer", "banner", "print"],
  ["~", "art", "artwork", "artistic", "drawing", "illustration"],
  ["~", "generate", "create", "make", "build", "produce"],
  ["~", "edit", "modify", "change", "update", "tweak"],
  ["~", "review", "audit", "inspect", "check", "assess"],
  ["refactor", "restructure", "clean up", "cleanup"],
  ["llm", "language model", "gpt", "claude", "chatbot"],
  ["~", "agent", "assistant", "bot"],
  ["~", "api", "endpoint", "rest", "sdk"],
  ["cost", "price", "pricing", "billing"],
  ["=", "invoice", "bill", "billing", "receipt"],
  ["=", "merge", "combine", "join", "concatenate", "concat"],
  ["split", "separate", "divide"],
  ["=", "resume", "cv", "curriculum vitae"],
  ["contract", "agreement", "nda"],
  ["transcript", "transcription", "recording"],
  ["~", "scale", "scaling", "grow", "growth", "capacity"],
  ["memory", "ram", "oom"],
  ["~", "cluster", "node", "shard", "replica"],
  ["website", "site", "web app", "webpage", "web page"],
  ["map", "gis", "geospatial", "spatial"],
  ["satellite", "remote sensing", "imagery"],
  ["protein", "antibody", "enzyme", "peptide"],
  ["gene", "genomic", "genome", "dna"],
  ["weather", "climate", "meteorological"],
  ["stock", "finance", "financial", "market"],
  ["~", "idea", "brainstorm", "ideation", "explore"],
  ["~", "plan", "roadmap", "spec"],
  ["~", "slack", "chat", "channel"],
  ["notion", "confluence"],
  ["~", "component", "widget"],
  ["~", "style", "css", "styling", "tailwind"],
  ["~", "ci", "pipeline", "github actions", "checks", "build"],
  ["~", "container", "docker", "dockerfile"],
  ["~", "migrate", "migration", "upgrade", "port"],
  ["~", "log", "logs", "logging"],
  ["vector", "embedding", "embeddings"],
];

export interface Expansion {
  /** The request term that brought it in. */
  from: string;
  term: string;
  /** Relative weight: 2 near-identity, 1 normal, 0.6 loose. */
  strength: number;
  /** The equivalent as a word (for explanations). */
  word: string;
  /** Joined only by the broader vocabulary (vocabulary.ts), not by a core group: weighed apart (`TUNING.vocabulary`). */
  broad: boolean;
}

/** An equivalent's strength, and whether only the broader vocabulary joins it. */
type Link = { strength: number; broad: boolean };

/** stem (or "stem stem" of a phrase) -> equivalent stems, with the strength of the strongest group that joins them. */
let table: Map<string, Map<string, Link>> | null = null;
/** stem -> the group word it came from. */
const wordOfStem = new Map<string, string>();

function stemsOf(phrase: string): string[] {
  return terms(phrase);
}

function build(): Map<string, Map<string, Link>> {
  const t = new Map<string, Map<string, Link>>();
  // Core groups first: a pair a core group joins keeps its core strength whatever the broader vocabulary says.
  const all = [...GROUPS.map((g) => ({ g, broad: false })), ...VOCABULARY.map((g) => ({ g, broad: true }))];
  for (const { g: raw, broad } of all) {
    const strength = raw[0] === "=" ? 2 : raw[0] === "~" ? 0.6 : 1;
    const group = raw[0] === "=" || raw[0] === "~" ? raw.slice(1) : raw;
    const join = (set: Map<string, Link>, b: string) => {
      const had = set.get(b);
      if (!had) set.set(b, { strength, broad });
      else if (had.broad === broad && strength > had.strength) had.strength = strength;
    };
    // Only single-word members expand (a phrase like "word document" is recognised as a bigram elsewhere).
    const single = group.map(stemsOf).filter((s) => s.length === 1).map((s) => s[0]!);
    group.forEach((w) => {
      const st = stemsOf(w);
      if (st.length === 1 && !wordOfStem.has(st[0]!)) wordOfStem.set(st[0]!, w);
    });
    const phrases = group.map(stemsOf).filter((s) => s.length > 1);
    for (const a of single) {
      const set = t.get(a) ?? new Map<string, Link>();
      for (const b of single) if (b !== a) join(set, b);
      t.set(a, set);
    }
    // A phrase member ("pull request") expands to the single members when both its words are in the request.
    for (const p of phrases) {
      const key = p.join(" ");
      const set = t.get(key) ?? new Map<string, Link>();
      for (const b of single) join(set, b);
      t.set(key, set);
    }
  }
  return t;
}

/**
 * Equivalents of the request's terms (and of its adjacent term pairs, for phrases such as "pull request"),
 * without the terms the request already has.
 */
export function expand(requestTerms: string[]): Expansion[] {
  table ??= build();
  const have = new Set(requestTerms);
  const out = new Map<string, Expansion>();
  const add = (from: string, set: Map<string, Link> | undefined) => {
    for (const [term, { strength, broad }] of set ?? []) {
      // A core group's reading wins over the broader vocabulary's, whichever request word comes first.
      if (have.has(term) || (out.has(term) && (broad || !out.get(term)!.broad))) continue;
      out.set(term, { from, term, strength, broad, word: wordOfStem.get(term) ?? term });
    }
  };
  for (let i = 0; i < requestTerms.length; i++) {
    const t = requestTerms[i]!;
    if (i + 1 < requestTerms.length) add(`${t} ${requestTerms[i + 1]}`, table.get(`${t} ${requestTerms[i + 1]}`));
    add(t, table.get(t));
  }
  return [...out.values()];
}
