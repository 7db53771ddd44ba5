// The layers view's what-if options through the tRPC router: what an empty environment/agent/tenant field means
// is the admin's scope default (config.yaml `defaults`), shown to the person.
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { SessionUser } from "../../../auth";
import { skillsTestHome } from "../../../services/skills/test-support";
import { createCaller } from "../../root";

let h: ReturnType<typeof skillsTestHome>;
beforeEach(() => {
  h = skillsTestHome();
});
afterEach(() => h.cleanup());

const admin: SessionUser = { id: "admin-1", email: "admin@x.io", name: "", role: "admin" };
const caller = () => createCaller({ db: h.db, dataHome: h.dh, audit: h.audit, user: admin, ip: "127.0.0.1" });

describe("layers.options", () => {
  it("names the admin's scope defaults, or none", async () => {
    expect((await caller().layers.options()).defaults).toEqual({ environment: null, agent: null, tenant: null });
    fs.writeFileSync(path.join(h.dh.home, "config.yaml"), "defaults:\n  environment: prod\n");
    expect((await caller().layers.options()).defaults).toEqual({ environment: "prod", agent: null, tenant: null });
  });
});
