export * from "./sources";
export { pendingSourceReviews, type SourceReview } from "./reviews";
