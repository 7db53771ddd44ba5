// The lines `npm start` passes on from the console server: ours and Next's real messages, not its config timing.
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { consoleAddressLine, passOutput, shownLine } from "./start-output";

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

  // Found following docs/deploy.md's team setup: each server said "console: http://localhost:<its port>", not the
  // proxy's address that NEXTAUTH_URL names and sign-in sends people to.
  it("says the console is at NEXTAUTH_URL when it is set to another address, with this server's port beside it", () => {
    expect(consoleAddressLine("https://skills.example.com", "3000")).toBe("[omniforge] console: https://skills.example.com (NEXTAUTH_URL; this server listens on port 3000)");
    expect(consoleAddressLine(undefined, "3000")).toBe("[omniforge] console: http://localhost:3000");
    expect(consoleAddressLine("http://localhost:3000/", "3000")).toBe("[omniforge] console: http://localhost:3000");
  });
});
