// The sentence above the editor for a definition agents do not get (#41 item 8), through the router as the editor asks.
import { describe, expect, it } from "vitest";
import type { SessionUser } from "../../auth";
import { callerFor } from "../../test-support/caller";
import { useTestHome } from "../../test-support/test-home";
import { govHome } from "./test-support/governance";

const h = useTestHome(govHome);
const admin: SessionUser = { id: "admin-id", email: "admin@x.io", name: "", role: "admin" };
const author: SessionUser = { id: "author-id", email: "author@x.io", name: "", role: "author" };

/** The sentence for the definition of `name` in `layer`, as the editor asks for it. */
async function said(user: SessionUser, name: string, layer: string) {
  const c = callerFor(h, user);
  const { chain } = await c.layers.explain({ name });
  const id = chain.find((l) => l.layer === layer)!.id;
  return (await c.layers.served({ name, id }))?.sentence ?? null;
}

describe("which definition agents get instead (#41 item 8)", () => {
  it("shadowed, blocked, waiting for approval and rejected each say what agents get and why; the served one says nothing", async () => {
    h.skill("enterprise", "house-style");
    h.skill("project", "house-style");
    expect(await said(author, "house-style", "enterprise")).toBeNull();
    expect(await said(author, "house-style", "project")).toMatch(/^Agents get the enterprise definition: enterprise outranks project \(shadowed by the enterprise definition/);

    h.skill("project", "release");
    await callerFor(h, admin).policy.change({ op: "block", name: "release" });
    expect(await said(author, "release", "project")).toBe('Blocked by policy: the name "release" is on the block list (no definition of this name is served).');

    h.skill("plugin", "notes", { plugin: "kit" });
    h.skill("project", "notes");
    await callerFor(h, admin).policy.change({ op: "setRequireApproval", project: true });
    expect(await said(author, "notes", "project")).toMatch(/^Waiting for approval \(.*project skills.*\): agents get the plugin "kit" definition\.$/);
    // Once the queue has it (an admin opened it), the sentence says since when.
    const { items } = await callerFor(h, admin).policy.approvals();
    expect(await said(author, "notes", "project")).toMatch(/^Waiting for approval since \d{4}-\d\d-\d\d \d\d:\d\d UTC \(/);
    await callerFor(h, admin).policy.decide({ id: items.find((i) => i.skill === "notes")!.id, decision: "rejected", comment: "use the plugin's" });
    expect(await said(author, "notes", "project")).toBe('This version was rejected by admin@x.io: "use the plugin\'s"; agents get the plugin "kit" definition.');
  });
});
