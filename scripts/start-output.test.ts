// The lines `npm start` passes on from the console server: ours and Next's real messages, not its config timing.
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { passOutput, shownLine } from "./start-output";

describe("npm start's output", () => {
  it("leaves out Next's 'Running next.config.ts took …' line, coloured or not", () => {
    expect(shownLine("✓ Running next.config.ts took 659ms")).toBe(false);
    expect(shownLine(" \x1b[32m✓\x1b[39m Running next.config.ts took 1.2s")).toBe(false);
  });

  it("keeps our lines and Next's warnings and errors", () => {
    for (const line of ["[omniforge] listening on port 3000", "⚠ Found a change in next.config.ts. Restarting the server", "Error: Running next.config.ts took too long", " ⨯ Failed to load next.config.ts"]) {
      expect(shownLine(line), line).toBe(true);
    }
  });

  it("passes a stream through line by line with that line dropped", async () => {
    const from = new PassThrough();
    const to = new PassThrough();
    let out = "";
    to.on("data", (c: Buffer) => (out += c.toString()));
    passOutput(from, to);
    from.end("[omniforge] console: http://localhost:3000\n✓ Running next.config.ts took 846ms\n[omniforge] listening on port 3000\n");
    await new Promise((r) => setTimeout(r, 20));
    expect(out).toBe("[omniforge] console: http://localhost:3000\n[omniforge] listening on port 3000\n");
  });
});
