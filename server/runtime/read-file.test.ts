import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FileReadError, readRegularFile } from "./read-file";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "omniforge-read-file-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** The problem readRegularFile reports for `file`, or "read" with the text when it reads it. */
function outcome(file: string, maxBytes = 1024): string {
  try {
    return `read ${readRegularFile(file, maxBytes).toString("utf8")}`;
  } catch (e) {
    if (e instanceof FileReadError) return `${e.problem}: ${e.message}`;
    throw e;
  }
}

describe("readRegularFile", () => {
  it("reads a regular file, also through a symlink", () => {
    fs.writeFileSync(path.join(tmp, "a.yaml"), "mode: tool\n");
    fs.symlinkSync(path.join(tmp, "a.yaml"), path.join(tmp, "link.yaml"));
    expect(outcome(path.join(tmp, "a.yaml"))).toBe("read mode: tool\n");
    expect(outcome(path.join(tmp, "link.yaml"))).toBe("read mode: tool\n");
  });

  it("refuses a named pipe at once instead of waiting for a writer", () => {
    const fifo = path.join(tmp, "pipe");
    execFileSync("mkfifo", [fifo]);
    const t0 = Date.now();
    expect(outcome(fifo)).toBe(`not-a-file: ${fifo} is a named pipe, not a regular file`);
    expect(Date.now() - t0).toBeLessThan(5000);
  });

  it("refuses a device that never ends and a folder", () => {
    expect(outcome("/dev/zero")).toBe("not-a-file: /dev/zero is a device, not a regular file");
    expect(outcome(tmp)).toBe(`not-a-file: ${tmp} is a folder, not a regular file`);
  });

  it("refuses a file over the limit, and says when the file is missing", () => {
    fs.writeFileSync(path.join(tmp, "big"), "x".repeat(2000));
    expect(outcome(path.join(tmp, "big"), 1999)).toBe(`too-large: ${path.join(tmp, "big")} is 2000 bytes; the limit is 1999`);
    expect(outcome(path.join(tmp, "big"), 2000)).toBe(`read ${"x".repeat(2000)}`);
    expect(outcome(path.join(tmp, "absent"))).toBe(`missing: ${path.join(tmp, "absent")} does not exist`);
  });
});
