import http from "node:http";
import { afterEach, describe, expect, it, vi } from "vitest";
import { parseRoleMap } from "../../domain/oidc";
import { listenLocal } from "../../test-support/listen";
import { checkOidcIssuer, oidcConfig, type OidcConfig } from "./oidc-settings";
import { startTestIdp } from "./test-support/oidc";

afterEach(() => void vi.unstubAllEnvs());

const configFor = (issuer: string): OidcConfig => ({ issuer, clientId: "c", clientSecret: "s", name: "SSO", rolesClaim: "groups", roleMap: parseRoleMap("") });

describe("the provider's settings at start", () => {
  it("passes a real provider's issuer, and stops with one line on a wrong one", async () => {
    const idp = await startTestIdp(() => "http://127.0.0.1:1/api/auth/callback/oidc");
    // Something that answers HTTP but is no provider, and a provider reached under another name.
    const web = await listenLocal(http.createServer((_req, res) => void res.writeHead(404).end("not here")));
    try {
      await expect(checkOidcIssuer(configFor(idp.issuer))).resolves.toBeUndefined();
      const wrong = checkOidcIssuer(configFor(web.url));
      await expect(wrong).rejects.toThrow(`OMNIFORGE_OIDC_ISSUER: no OpenID discovery at ${web.url}/.well-known/openid-configuration (HTTP 404)`);
      const alias = idp.issuer.replace("127.0.0.1", "localhost");
      await expect(checkOidcIssuer(configFor(alias))).rejects.toThrow(`names the issuer "${idp.issuer}", not ${alias}`);
      const message = String(await checkOidcIssuer(configFor(web.url)).catch((e: Error) => e.message));
      expect(message.split("\n")).toHaveLength(1);
    } finally {
      await web.close();
      await idp.close();
    }
  });

  it("refuses settings that do not fit together, in one line naming them", () => {
    vi.stubEnv("OMNIFORGE_OIDC_ISSUER", "https://idp.example/");
    expect(() => oidcConfig()).toThrow("OMNIFORGE_OIDC_ISSUER needs OMNIFORGE_OIDC_CLIENT_ID and OMNIFORGE_OIDC_CLIENT_SECRET");
    vi.stubEnv("OMNIFORGE_OIDC_CLIENT_ID", "console");
    vi.stubEnv("OMNIFORGE_OIDC_CLIENT_SECRET", "secret");
    vi.stubEnv("OMNIFORGE_OIDC_ROLE_MAP", "admins=boss");
    expect(() => oidcConfig()).toThrow("Invalid environment variable OMNIFORGE_OIDC_ROLE_MAP");
    vi.stubEnv("OMNIFORGE_OIDC_ROLE_MAP", "admins=admin");
    expect(oidcConfig()).toMatchObject({ issuer: "https://idp.example", name: "single sign-on", rolesClaim: "groups" });
    vi.unstubAllEnvs();
    vi.stubEnv("OMNIFORGE_PASSWORD_LOGIN", "off");
    expect(() => oidcConfig()).toThrow("OMNIFORGE_PASSWORD_LOGIN=off needs OMNIFORGE_OIDC_ISSUER");
  });
});
