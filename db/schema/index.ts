export * from "./users";
export * from "./audit";
export * from "./skill-versions";
export * from "./governance";
export * from "./playground";
export * from "./evals";
export * from "./auth-sessions";
export * from "./tokens";
