/**
 * Internals the search benchmark (bench/search.ts) compares against: ripgrep's base arguments (the
 * unindexed baseline) and the per-workspace index (to time a cold start). Not for runs.
 */
export { RG_BASE_ARGS } from "./search/rg.js";
export { workspaceIndex } from "./search/workspace-index.js";
