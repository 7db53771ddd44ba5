// `omniforge sync`'s runtime: agents' folders, the lock file, plan and apply, and the console's catalog over HTTP.
export * from "./targets";
export * from "./lock";
export * from "./plan";
export { applyFolder } from "./apply";
export * from "./digest";
export { catalogChanged, fetchCatalog, fetchFolders, reportSync, SyncRemoteError, type RemoteCatalog } from "./remote";
