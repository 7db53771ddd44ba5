export * from "./sources";
export { pendingSourceReviews } from "./reviews";
