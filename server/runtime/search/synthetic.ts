// Synthetic catalogs for measuring speed at scale (npm run bench): a catalog of N skill folders made from a word
// list, written to disk. Not for accuracy (the 591 real skills of shared/fixtures/catalog are, catalog.ts).
import fs from "node:fs";
import path from "node:path";

/** A deterministic pseudo-random generator (so every bench run indexes the same catalog). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const WORDS = (
  "pdf form fill extract merge split table chart slide deck document report invoice receipt email calendar meeting " +
  "database query index schema migration postgres mysql redis cache queue worker cluster node shard replica latency " +
  "deploy release pipeline build test lint format review audit security secret token auth login session cookie " +
  "image photo video audio transcribe translate summarize classify search rank embed vector model prompt agent tool " +
  "react component page route server api endpoint client mobile android ios swift kotlin python rust go java ruby " +
  "docker kubernetes terraform cloud bucket storage backup restore monitor alert log metric trace dashboard graph " +
  "design poster logo brand color font layout grid animation gif sprite game level physics music note song lyric " +
  "finance budget tax payroll stock forecast trend sales lead customer ticket support faq wiki knowledge notion slack"
).split(" ");

/** Writes `n` skills made from a word list (name, description of ~40 words, body of ~400 words with headings). */
export function wordCatalog(out: string, n: number, seed = 7): string[] {
  const r = rng(seed);
  const pick = () => WORDS[Math.floor(r() * WORDS.length)]!;
  const dirs: string[] = [];
  for (let i = 0; i < n; i++) {
    const name = `${pick()}-${pick()}-${i}`;
    const description = `${Array.from({ length: 40 }, pick).join(" ")}. Use when the user asks to ${pick()} a ${pick()}.`;
    const sections = Array.from({ length: 6 }, () => `## ${pick()} ${pick()}\n\n${Array.from({ length: 65 }, pick).join(" ")}.\n`);
    const dir = path.join(out, name);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "SKILL.md"), `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n\n${sections.join("\n")}`);
    dirs.push(dir);
  }
  return dirs;
}
