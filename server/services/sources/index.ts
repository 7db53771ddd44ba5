export * from "./sources";
export { pendingSourceReviews } from "./reviews";
export { publishState, type PublishState } from "./publish-state";
