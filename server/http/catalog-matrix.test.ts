// The catalog API obeys policy and approval exactly as the playground does: the shared policy matrix
// (server/test-support/policy-matrix.ts, also run against the console list and the CLI), each case read over
// real HTTP with a real token, and compared with what a playground session of the same user would list.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callerFor } from "../test-support/caller";
import type { SessionUser } from "../auth";
import { sessionSkills } from "../services/playground/scope";
import { useSkillsTestHome } from "../test-support/test-home";
import { createToken } from "../services/tokens";
import { createUser } from "../services/users/users";
import { serveFetch } from "../test-support/http-server";
import { applyCase, MATRIX, writeMatrixSkills } from "../test-support/policy-matrix";
import { handleCatalogRequest } from "./catalog-route";

const h = useSkillsTestHome({ once: true });
let server: Awaited<ReturnType<typeof serveFetch>>;
let admin: SessionUser;
let token: string;

beforeAll(async () => {
  writeMatrixSkills(h.dataHome);
  const a = await createUser(h.db, { email: "admin@x.io", role: "admin", password: "password1" });
  admin = { id: a.id, email: a.email, name: "", role: "admin" };
  ({ token } = await createToken(h.db, admin, { name: "matrix", scopes: "catalog:read" }, { audit: h.audit, actor: { id: a.id } }));
  server = await serveFetch((req) => handleCatalogRequest(req, { db: h.db, dataHome: h.dataHome }));
});
afterAll(async () => {
  await server.close();
});

describe("the catalog API against the policy matrix", () => {
  for (const c of MATRIX) {
    it(`${c.title}: active definitions are offered, from their layer; nothing else is`, async () => {
      await applyCase(callerFor(h, admin).policy, c, h.dataHome.home);
      const res = await fetch(`${server.url}/api/catalog?agent=claude-code`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
      const offered = new Map(((await res.json()) as { skills: { name: string; layer: string }[] }).skills.map((s) => [s.name, s.layer]));
      for (const [key, state] of Object.entries(c.expect)) {
        const [name, layer] = key.split("@") as [string, string];
        if (state === "active") expect(offered.get(name), key).toBe(layer);
        else expect(offered.get(name), key).not.toBe(layer);
      }
      const playground = await sessionSkills(h.db, h.dataHome, { userId: admin.id, agent: "claude-code", environment: null, tenant: null, skills: null } as never);
      expect([...offered.keys()]).toEqual(playground.map((e) => e.name));
    });
  }
});
