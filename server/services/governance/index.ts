// Governance: policy changes, approvals, the override matrix and what-if, deploy with a preview.
export { changePolicy, VENDOR_WORD_PATTERNS } from "./policy-change";
export { resolutionFor, scopeValues, viewerIndex } from "./context";
export { buildMatrix, effectiveSkills, explain, readDefinition } from "./matrix";
export { decideApproval, recentDecisions, approvalNotes } from "./approvals";
export { allDefinitions } from "./definitions";
export { approvalsInReach, assertApprovalInReach } from "./approval-reach";
export { unmatchedRules } from "./rule-reach";
export { previewPolicyChange } from "./policy-preview";
export { policyInReach } from "./policy-reach";
export { servedInstead } from "./served";
export {
  checkDeployRight,
  deployTargetsFor,
  previewDeploy,
  executeDeploy,
} from "./deploy";
export { exportPolicy, importPolicy } from "./policy-document";
