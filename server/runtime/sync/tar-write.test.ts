// What the writer makes, the registry's reader reads back: names (long ones too), contents and modes.
import { expect, it } from "vitest";
import { readTar } from "../registry/tar";
import { tarBlocks } from "./tar-write";

it("round-trips files, executable modes and a path over 100 bytes", async () => {
  const long = `deep/${"d".repeat(120)}/file.txt`;
  const files = [
    { path: "pdf/SKILL.md", data: new TextEncoder().encode("---\nname: pdf\n---\nbody\n"), mode: 0o644 },
    { path: "pdf/scripts/run.sh", data: new TextEncoder().encode("#!/bin/sh\necho hi\n"), mode: 0o755 },
    { path: long, data: new Uint8Array(700).fill(65), mode: 0o644 },
  ];
  const buf = Buffer.concat([...tarBlocks(files)]);
  const entries = await readTar(buf, 100);
  expect(entries.map((e) => [e.name, e.size, e.mode & 0o777])).toEqual([
    ["pdf/SKILL.md", files[0]!.data.length, 0o644],
    ["pdf/scripts/run.sh", files[1]!.data.length, 0o755],
    [long, 700, 0o644],
  ]);
  expect(Buffer.from(entries[1]!.data!).toString()).toBe("#!/bin/sh\necho hi\n");
});
