// Governance: policy changes, approvals, the override matrix and what-if, deploy with a preview.
export { GovernanceError, type GovernanceErrorCode } from "./errors";
export { applyPolicyChange, changePolicy, VENDOR_WORD_PATTERNS, type PolicyChange } from "./policy-change";
export { resolutionFor, scopeValues, ownerOf, displayPath, whatIfUser, type Viewer, type WhatIf, type ResolutionSetup } from "./context";
export { buildMatrix, explain, readDefinition, type LayerMatrix, type MatrixRow, type MatrixCell, type Explanation, type ChainLink } from "./matrix";
export { syncApprovals, decideApproval, recentDecisions, approvalNotes, approvalDigestOf, type ApprovalItem, type ApprovalNote } from "./approvals";
export { allDefinitions } from "./definitions";
export {
  checkDeployRight,
  deployTargetsFor,
  previewDeploy,
  executeDeploy,
  previewContexts,
  type DeployTarget,
  type DeployPreview,
  type PreviewRow,
  type DeployResult,
} from "./deploy";
export { cliDeploy, formatPreview, type CliDeployOptions, type CliDeployOutcome } from "./cli-deploy";
export { exportPolicy, importPolicy, checkPolicyDocument } from "./policy-document";
