import {
  allDefinitions,
  approvalsInReach,
  assertApprovalInReach,
  changePolicy,
  decideApproval,
  policyInReach,
  previewPolicyChange,
  recentDecisions,
  unmatchedRules,
  VENDOR_WORD_PATTERNS,
} from "../../../services/governance";
import { adminReach } from "../../../services/tenants";
import { readStoredPolicy } from "../../../services/policy/store";
import { assertApprovable } from "../../../services/doctor";
import { reviewApproval } from "../../../services/doctor/approval-review";
import { applySourceDecision } from "../../../services/sources";
import { actorOf, type AuthedContext } from "../../trpc";
import type { TDecideInput, TPolicyChange, TReviewInput } from "./policy.schema";

/**
 * The policy, and whether this admin may change it (the global admin; a tenant admin reads it, issue #40): the page
 * takes the right from here. A tenant admin's copy leaves out the rules naming another tenant's skill, counted.
 */
export const get = async ({ ctx }: { ctx: AuthedContext }) => ({
  ...(await policyInReach(ctx.db, ctx.dataHome, ctx.user, await readStoredPolicy(ctx.db))),
  vendorWordPatterns: VENDOR_WORD_PATTERNS,
  mayChange: (await adminReach(ctx.db, ctx.user)) === "all",
});

/** The stored policy after the change, and what the change's names match nothing of today (said, not refused). */
export const change = async ({ ctx, input }: { ctx: AuthedContext; input: TPolicyChange }) => {
  const policy = await changePolicy(ctx.db, input, { audit: ctx.audit, actor: actorOf(ctx.user) });
  return { policy, unmatched: unmatchedRules(input, await allDefinitions(ctx.dataHome, ctx.user.id)) };
};

/** What the change would do to the skills agents get (the Layers page's resolution, before and after); nothing is stored. */
export const preview = ({ ctx, input }: { ctx: AuthedContext; input: TPolicyChange }) => previewPolicyChange(ctx.db, ctx.dataHome, ctx.user, input);

/** The approvals this admin sees, each with whether they may decide it (the page shows Approve and Reject by it). */
export const approvals = async ({ ctx }: { ctx: AuthedContext }) => {
  const { items, sees } = await approvalsInReach(ctx.db, ctx.dataHome, ctx.user);
  const recent = (await recentDecisions(ctx.db, 30)).filter(sees);
  return { items, recent };
};

const doctorCtx = (ctx: AuthedContext) => ({ db: ctx.db, dataHome: ctx.dataHome, audit: ctx.audit, actor: { id: ctx.user.id, email: ctx.user.email, role: ctx.user.role }, procedure: ctx.procedure });

/** One waiting version with its text, the diff against what agents get now, and its doctor findings. */
export const review = async ({ ctx, input }: { ctx: AuthedContext; input: TReviewInput }) => {
  await assertApprovalInReach(ctx.db, ctx.dataHome, ctx.user, input.id, "review");
  return reviewApproval(doctorCtx(ctx), input.id);
};

/** An approval must pass the doctor's gate when the policy sets one (server/services/doctor/policy.ts). */
export const decide = async ({ ctx, input }: { ctx: AuthedContext; input: TDecideInput }) => {
  await assertApprovalInReach(ctx.db, ctx.dataHome, ctx.user, input.id, "decide");
  if (input.decision === "approved") await assertApprovable(doctorCtx(ctx), input.id);
  const decided = await decideApproval(ctx.db, input, { audit: ctx.audit, actor: actorOf(ctx.user) });
  // A git source update's last approved change moves the source's pin (#39).
  const pinned = await applySourceDecision(ctx.db, ctx.dataHome, decided, { audit: ctx.audit, actor: actorOf(ctx.user) });
  return { ...decided, sourcePinned: pinned };
};
