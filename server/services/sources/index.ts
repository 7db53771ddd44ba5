export * from "./sources";
export { pendingSourceReviews } from "./reviews";
export { publishState } from "./publish-state";
