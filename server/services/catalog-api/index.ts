export * from "./catalog-api";
export * from "./deployments";
