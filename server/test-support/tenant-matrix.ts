// One matrix of doors for tenants as a boundary (issue #40), as policy-matrix.ts is for policies: every way a console
// user or an agent's token reaches a skill, each answering which of the matrix's skills it showed, served or named.
// A door that refuses (NOT_FOUND, as for a folder that is not there) shows nothing. The doctor's catalog report
// resolves with no tenant (scoped skills are out of scope there), so its test sets an admin's default tenant. The test
// (server/services/tenants/tenant-matrix.test.ts) runs each door for a user of each tenant and the global admin.
import path from "node:path";
import type { SessionUser } from "../auth";
import type { createCaller } from "../api/root";
import { skillMd, writeSkillOnDisk } from "../services/skills/test-support/skills";

/** acme-ledger is scoped to acme, globex-ledger to globex (with nearly the same description: a doctor overlap), shared-notes to nobody. */
export const TENANT_SKILLS = ["acme-ledger", "globex-ledger", "shared-notes"] as const;

const LEDGER = "Reconcile the monthly ledger, match bank statement lines to invoices and flag unmatched payments. Use when closing the books.";

export function writeTenantSkills(dataHome: { projectRoot: string }): void {
  const project = path.join(dataHome.projectRoot, ".omniforge", "skills");
  writeSkillOnDisk(path.join(project, "acme-ledger"), { "SKILL.md": skillMd("acme-ledger", LEDGER, "scope:\n  tenants: [acme]\n") });
  writeSkillOnDisk(path.join(project, "globex-ledger"), { "SKILL.md": skillMd("globex-ledger", `${LEDGER} Ledger reconcile.`, "scope:\n  tenants: [globex]\n") });
  writeSkillOnDisk(path.join(project, "shared-notes"), { "SKILL.md": skillMd("shared-notes", "Write meeting notes in the house style. Use when someone asks for notes.") });
}

/** The matrix's skills were also in .agents/skills once, and deleted there (by the global admin), for the deleted-skill doors. */
export const ARCHIVE_BASE = ".agents/skills";

export async function archiveTenantSkills(dataHome: { projectRoot: string }, root: ReturnType<typeof createCaller>): Promise<void> {
  const archive = path.join(dataHome.projectRoot, ARCHIVE_BASE);
  const scopes: Record<string, string> = { "acme-ledger": "scope:\n  tenants: [acme]\n", "globex-ledger": "scope:\n  tenants: [globex]\n" };
  for (const n of TENANT_SKILLS) {
    writeSkillOnDisk(path.join(archive, n), { "SKILL.md": skillMd(n, `An older copy of ${n}, kept in the deleted list.`, scopes[n] ?? "") });
    await root.skill.delete({ ref: { layer: "project", base: ARCHIVE_BASE, skill: n } });
  }
}

export interface TenantWorld {
  api(user: SessionUser): ReturnType<typeof createCaller>;
  /** GET /api/catalog over real HTTP with this bearer token. */
  catalog(token: string, query?: string): Promise<Response>;
  /** The skills a new playground session of this user lists (the session created through the API). */
  playground(user: SessionUser): Promise<string[]>;
  /** The id of the version that deleted the archived copy of a matrix skill, as the global admin lists it now. */
  deletedVersion(skill: string): Promise<number>;
  /** The id of a finished trigger-test run of each matrix skill. */
  runOf(skill: string): number;
}

export interface Who {
  user: SessionUser;
  /** An access token of the user (catalog:read), made through the API: its tenants are the user's. */
  token: string;
}

const refused = async (p: Promise<unknown>): Promise<boolean> => {
  try {
    await p;
    return false;
  } catch (e) {
    if ((e as { code?: string }).code === "NOT_FOUND") return true;
    throw e;
  }
};

/** Which of the matrix's skills a door named to this caller. */
const named = (text: string) => TENANT_SKILLS.filter((n) => text.includes(n));

/** Which of the matrix's skills can be opened one by one through a door taking a skill's folder. */
async function openable(open: (skill: string) => Promise<unknown>): Promise<string[]> {
  const out: string[] = [];
  for (const n of TENANT_SKILLS) if (!(await refused(open(n)))) out.push(n);
  return out;
}

const ref = (skill: string) => ({ layer: "project" as const, skill });

export const TENANT_DOORS: { door: string; seen(w: TenantWorld, who: Who): Promise<string[]> }[] = [
  { door: "skill list", seen: async (w, who) => named(JSON.stringify((await w.api(who.user).skill.list({})).rows)) },
  { door: "search", seen: async (w, who) => named(JSON.stringify(await w.api(who.user).skill.search({ q: "reconcile the ledger, meeting notes" }))) },
  { door: "skill info", seen: (w, who) => openable((s) => w.api(who.user).skill.info({ ref: ref(s) })) },
  { door: "read a file", seen: (w, who) => openable((s) => w.api(who.user).skill.readFile({ ref: ref(s), path: "SKILL.md" })) },
  { door: "layers matrix", seen: async (w, who) => named(JSON.stringify(await w.api(who.user).layers.matrix({}))) },
  { door: "playground activation list", seen: (w, who) => w.playground(who.user) },
  { door: "trigger tests", seen: (w, who) => openable((s) => w.api(who.user).evals.getSet({ ref: ref(s) })) },
  { door: "a trigger-test run by its id", seen: (w, who) => openable((s) => w.api(who.user).evals.get({ id: w.runOf(s) })) },
  { door: "trigger tests overview", seen: async (w, who) => named(JSON.stringify(await w.api(who.user).evals.overview())) },
  { door: "doctor of one skill", seen: (w, who) => openable((s) => w.api(who.user).doctor.skill({ ref: ref(s) })) },
  { door: "deleted skills list", seen: async (w, who) => named(JSON.stringify(await w.api(who.user).skill.deleted())) },
  { door: "a version by its id", seen: (w, who) => openable(async (s) => w.api(who.user).skill.version({ id: await w.deletedVersion(s) })) },
  {
    door: "restore a deleted skill",
    // Restored, then deleted again by the same caller, so the next caller finds the same world.
    seen: (w, who) =>
      openable(async (s) => {
        const { ref } = await w.api(who.user).skill.restoreDeleted({ id: await w.deletedVersion(s) });
        await w.api(who.user).skill.delete({ ref });
      }),
  },
  {
    door: "catalog API and sync (json and tar)",
    seen: async (w, who) => {
      const json = await (await w.catalog(who.token)).text();
      const tar = Buffer.from(await (await w.catalog(who.token, "format=tar")).arrayBuffer()).toString("latin1");
      return named(json + tar);
    },
  },
];
