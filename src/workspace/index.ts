export { type AtCommitOptions, cloneAtCommit, releaseSnapshots, snapshotAtCommit } from "./at-commit.js";
export type { Checkout, Snapshot } from "./cow/index.js";
export { openInside, PathError, readTextInside, writeTextInside } from "./files.js";
export { commitAll, dirtyPaths, git, withTrustedGit } from "./git.js";
export { isWithin, MAX_SYMLINK_EXPANSIONS, type PathResolution, resolveInside } from "./paths.js";
