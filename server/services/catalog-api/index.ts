export * from "./catalog-api";
