// The agent: the loop, the three disclosure modes, the listing budget, providers. Other code imports from here.
export * from "./types";
export { runAgent, listingInfo, recentRequests, DEFAULT_STEP_LIMIT, DEFAULT_MAX_LOADED_SKILLS } from "./loop";
export { buildListing, listingBudgetFor, omittedLine, CHARS_PER_TOKEN, SEARCH_TOOL, type Listing, type ListingSkill, type ListingOptions } from "./listing";
export { baseSystemPrompt, forkSystemPrompt, activeSkillsBlock, skillToolDescription, NAVIGATION_RULES, TOOL_RULES } from "./prompts";
export { createProvider, isProviderName } from "./providers";
export { OfflineProvider, OFFLINE_MODEL, OFFLINE_NOTICE, planActions, bashCommands, bodyLinks } from "./offline";
export { AiSdkProvider, openAiCompatibleProvider, anthropicProvider, ProviderConfigError, wireName } from "./ai-providers";
export { router, RANKED_KEEP, type Router, type Routed, type RouteOptions } from "./routing";
export { effectiveSkills, loadSkill, searchOf, SkillLoadError, type LoadedSkill } from "./skill-source";
export { disclosurePreview, type ModeDisclosure, type DisclosureOptions } from "./disclosure";
