export * from "./sources";
