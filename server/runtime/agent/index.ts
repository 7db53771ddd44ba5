// The agent: the loop, the three disclosure modes, the listing budget, providers. Other code imports from here.
export * from "./types";
export { runAgent } from "./loop";
export { listingBudgetFor, listingInfo, recentRequests } from "./listing";
export { createProvider, isProviderName } from "./providers";
export { OFFLINE_MODEL } from "./offline";
export { router } from "./routing";
export { effectiveSkills } from "./skill-source";
