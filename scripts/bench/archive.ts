// Archive benchmark: checking and extracting a skill archive in memory (the console's import and
// `omniforge skill install`), for a typical skill and for one at the file-count limit. Parsing is yauzl's
// and tar-stream's; this shows what that costs per import. Medians of a few runs.
import { gzipSync, strToU8, zipSync, type Zippable } from "fflate";
import { extractArchive, type ArchiveFormat } from "../../server/runtime/registry/archive";
import { tarBlocks } from "../../server/runtime/sync/tar-write";

export const name = "archive";

// Text that compresses like prose (about 3x), not like a repeated word: the ratio guard refuses the latter.
function prose(bytes: number, seed: number): string {
  const words = ["skill", "file", "the", "reads", "when", "a", "table", "form", "script", "runs", "page", "of", "and", "model"];
  let s = seed >>> 0;
  let out = "";
  while (out.length < bytes) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    out += words[s % words.length] + (s & 0x100 ? " " : s & 0x200 ? ", " : ".\n") + (s & 0x3000 ? "" : String(s % 997));
  }
  return out;
}

const skill = (files: number, bytes: number): { path: string; data: Uint8Array }[] => [
  { path: "s/SKILL.md", data: strToU8("---\nname: s\ndescription: A benchmark skill.\n---\n# s\n") },
  ...Array.from({ length: files }, (_, i) => ({ path: `s/references/f${i}.md`, data: strToU8(`# ${i}\n` + prose(bytes, i + 1)) })),
];

function archives(files: { path: string; data: Uint8Array }[]): Record<ArchiveFormat, Uint8Array> {
  const zippable: Zippable = Object.fromEntries(files.map((f) => [f.path, f.data]));
  const tar = Buffer.concat([...tarBlocks(files.map((f) => ({ ...f, mode: 0o644 })))]);
  return { zip: zipSync(zippable), "tar.gz": gzipSync(tar), tar: new Uint8Array(tar) };
}

async function medianMs(fn: () => Promise<unknown>, runs = 7): Promise<number> {
  await fn();
  const xs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    xs.push(performance.now() - t0);
  }
  xs.sort((a, b) => a - b);
  return Math.round(xs[Math.floor(xs.length / 2)]! * 100) / 100;
}

export async function run(): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const [label, files] of [
    ["typical: 20 files of 4 KiB", skill(20, 4096)],
    ["at the limit: 999 files of 1 KiB", skill(999, 1024)],
  ] as const) {
    const a = archives(files);
    const row: Record<string, number> = {};
    for (const format of ["zip", "tar.gz", "tar"] as const) row[`${format} extractMs`] = await medianMs(async () => extractArchive(a[format], format));
    out[label] = row;
  }
  return out;
}
