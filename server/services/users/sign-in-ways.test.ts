// Whose token is whose across both kinds of user (issue #40): the Users page and the token list say how each person
// signs in (a password, or the OpenID provider with their subject there) through the real routers on a real SQLite file.
import { describe, expect, it } from "vitest";
import type { SessionUser } from "../../auth";
import { parseRoleMap, signInLabel } from "../../domain/oidc";
import { oidcSignIn } from "../auth/oidc";
import { callerFor } from "../../test-support/caller";
import { useSkillsTestHome } from "../../test-support/test-home";
import { createUser } from "./users";

const h = useSkillsTestHome();

describe("how each user signs in", () => {
  it("the users list and every token's owner say password or the provider with the subject; a machine token has no owner", async () => {
    const r = await createUser(h.db, { email: "root@x.io", role: "admin", password: "password1" });
    const root: SessionUser = { id: r.id, email: r.email, name: "", role: "admin" };
    const ann = await createUser(h.db, { email: "ann@x.io", role: "author", password: "password1" });
    const signed = await oidcSignIn(h.db, h.audit, { issuer: "https://idp.example.com/realms/corp", subject: "00u-42", email: "oscar@corp.example", emailVerified: true, groups: [] }, parseRoleMap(""), "10.0.0.1");
    if (!signed.ok) throw new Error(signed.message);
    const api = callerFor(h, root);

    const users = await api.user.list();
    const way = (email: string) => users.find((u) => u.email === email)?.signIn;
    expect(way("ann@x.io")).toEqual({ kind: "password", identities: [] });
    expect(way("oscar@corp.example")).toEqual({ kind: "oidc", identities: [{ issuer: "https://idp.example.com/realms/corp", subject: "00u-42" }] });
    expect(signInLabel(way("oscar@corp.example")!)).toBe("OIDC idp.example.com: 00u-42");
    expect(signInLabel(way("ann@x.io")!)).toBe("password");

    const base = { name: "sync", scopes: ["catalog:read" as const], expiresInDays: 30 };
    await api.tokens.create({ ...base, name: "ann-laptop", forUserId: ann.id });
    await api.tokens.create({ ...base, name: "oscar-ci", forUserId: signed.user.id });
    await api.tokens.create({ ...base, name: "build-farm", forUserId: "machine" });
    const owners = Object.fromEntries((await api.tokens.list({ all: true })).map((t) => [t.name, [t.userEmail, t.ownerSignIn && signInLabel(t.ownerSignIn)]]));
    expect(owners).toEqual({
      "ann-laptop": ["ann@x.io", "password"],
      "oscar-ci": ["oscar@corp.example", "OIDC idp.example.com: 00u-42"],
      "build-farm": [null, null],
    });
  });
});
