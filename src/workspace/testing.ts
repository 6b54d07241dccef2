/**
 * Copy-on-write internals the workspace benchmark (bench/workspace.ts) times one by one — the
 * overlay mount and unmount, the mounter switch, the tree deletion, the diff against the base — and
 * the scratch helpers tests use. Runs go through the index (snapshots, checkouts), never these.
 */
export { gitDiffAgainstBase } from "./cow/git-diff.js";
export { MOUNT_ENV, type Mounter } from "./cow/mounters.js";
export { currentMounter, mountOverlay, type OverlayLayers, unmount, useMounter } from "./cow/mounts.js";
export { deleteTree } from "./cow/remove.js";
export { makeScratch, mountedUnder } from "./cow/testing.js";
export type { UpperStorage } from "./cow/types.js";
