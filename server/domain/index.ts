export * from "./vocabulary";
export * from "./errors";
export * from "./audit-events";
export * from "./limits";
