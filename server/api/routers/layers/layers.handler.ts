import { listUsers } from "../../../services/users/users";
import {
  approvalNotes,
  buildMatrix,
  checkDeployRight,
  deployTargetsFor,
  effectiveSkills,
  executeDeploy,
  explain as explainResolution,
  previewDeploy,
  readDefinition,
  resolutionFor,
  scopeValues,
  servedInstead,
  viewerIndex,
} from "../../../services/governance";
import { effectivePolicy } from "../../../services/policy/store";
import { actorOf, type AuthedContext } from "../../trpc";
import type { TDefinitionInput, TDeployInput, TDeployPreviewInput, TExplainInput, TServedInput, TWhatIf } from "./layers.schema";
import { readDoctorPolicy } from "../../../services/doctor/policy";
import { configContextFor } from "../../../services/skills-config";
import { adminReach, usersInReach } from "../../../services/tenants";
import { skillActor } from "../../../services/skills";

/** What the what-if pickers offer: users (admins: everyone; others: themselves), scope values, deploy targets. */
export async function options({ ctx }: { ctx: AuthedContext }) {
  const index = await viewerIndex(ctx.db, ctx.dataHome, ctx.user);
  // A tenant admin is offered the users they manage (issue #40), no one else's email.
  const managed = await usersInReach(ctx.db, ctx.user);
  const users =
    ctx.user.role === "admin"
      ? (await listUsers(ctx.db)).filter((u) => managed(u.id)).map((u) => ({ id: u.id, email: u.email }))
      : [{ id: ctx.user.id, email: ctx.user.email }];
  // The admin's scope defaults (config.yaml `defaults`, OMNIFORGE_DEFAULT_*): what an empty what-if field means.
  const d = configContextFor(ctx.dataHome.home, ctx.dataHome.projectRoot).scopeDefaults;
  const defaults = { environment: d?.environment ?? null, agent: d?.agent ?? null, tenant: d?.tenant ?? null };
  // Blocking a name changes the policy, the global admin's (issue #40): the page shows the button by this.
  const mayChangePolicy = (await adminReach(ctx.db, ctx.user)) === "all";
  return { users, me: ctx.user.id, isAdmin: ctx.user.role === "admin", mayChangePolicy, scope: scopeValues(index.entries()), defaults, deployTargets: deployTargetsFor(await skillActor(ctx.db, ctx.user)) };
}

export const matrix = async ({ ctx, input }: { ctx: AuthedContext; input: TWhatIf }) => {
  const { index, ctx: rctx, userId } = await resolutionFor(ctx.db, ctx.dataHome, ctx.user, input);
  return { ...buildMatrix(index, rctx), context: { userId, environment: rctx.environment, agent: rctx.agent, tenant: rctx.tenant } };
};

export const explain = async ({ ctx, input }: { ctx: AuthedContext; input: TExplainInput }) => {
  const { name, ...w } = input;
  const { index, ctx: rctx } = await resolutionFor(ctx.db, ctx.dataHome, ctx.user, w);
  const ex = explainResolution(index, name, rctx, ctx.dataHome);
  // A waiting definition shows the decision on its version so far (e.g. rejected, with the admin's comment).
  const waiting = index.definitions(name).filter((e) => ex.chain.some((c) => c.id === e.id && c.status === "pending-approval"));
  const notes = await approvalNotes(ctx.db, ctx.dataHome, waiting);
  return { ...ex, chain: ex.chain.map((c) => (notes[c.id] ? { ...c, approval: notes[c.id] } : c)) };
};

/** For the editor: which definition agents get instead of this one, and why, in one sentence (null: this one). */
export const served = async ({ ctx, input }: { ctx: AuthedContext; input: TServedInput }) => {
  const { id, ...rest } = input;
  return servedInstead(await explain({ ctx, input: rest }), id);
};

export const definition = async ({ ctx, input }: { ctx: AuthedContext; input: TDefinitionInput }) => {
  const { index } = await resolutionFor(ctx.db, ctx.dataHome, ctx.user, { userId: input.userId });
  return readDefinition(index, input.id, ctx.dataHome);
};

// Deploys always act on the signed-in person's own view (their personal layer is the one written to).
export const deployPreview = async ({ ctx, input }: { ctx: AuthedContext; input: TDeployPreviewInput }) => {
  checkDeployRight(await skillActor(ctx.db, ctx.user), input.target);
  const index = await viewerIndex(ctx.db, ctx.dataHome, ctx.user);
  return previewDeploy(index, ctx.dataHome, input, await effectivePolicy(ctx.db, { userId: ctx.user.id }), (await readDoctorPolicy(ctx.db)).ignore);
};

export const deploy = async ({ ctx, input }: { ctx: AuthedContext; input: TDeployInput }) => {
  checkDeployRight(await skillActor(ctx.db, ctx.user), input.target);
  const index = await viewerIndex(ctx.db, ctx.dataHome, ctx.user);
  return executeDeploy(index, ctx.dataHome, input, await effectivePolicy(ctx.db, { userId: ctx.user.id }), { audit: ctx.audit, actor: actorOf(ctx.user) }, await readDoctorPolicy(ctx.db));
};

/** What an agent in this context would be offered: one active definition per name (what the playground's listing shows). */
export const effective = async ({ ctx, input }: { ctx: AuthedContext; input: TWhatIf }) => {
  const { index, ctx: rctx } = await resolutionFor(ctx.db, ctx.dataHome, ctx.user, input);
  return effectiveSkills(index, rctx);
};
