// The layers view's what-if options through the tRPC router: what an empty environment/agent/tenant field means
// is the admin's scope default (config.yaml `defaults`), shown to the person.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { SessionUser } from "../../../auth";
import { useSkillsTestHome } from "../../../test-support/test-home";
import { callerFor } from "../../../test-support/caller";

const h = useSkillsTestHome();

const admin: SessionUser = { id: "admin-1", email: "admin@x.io", name: "", role: "admin" };
const caller = () => callerFor(h, admin);

describe("layers.options", () => {
  it("names the admin's scope defaults, or none", async () => {
    expect((await caller().layers.options()).defaults).toEqual({ environment: null, agent: null, tenant: null });
    fs.writeFileSync(path.join(h.dh.home, "config.yaml"), "defaults:\n  environment: prod\n");
    expect((await caller().layers.options()).defaults).toEqual({ environment: "prod", agent: null, tenant: null });
  });
});
