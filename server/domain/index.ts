export * from "./vocabulary";
export * from "./errors";
export * from "./audit-events";
export * from "./audit-chain";
export * from "./limits";
export * from "./tokens";
export * from "./skill-protocol";
