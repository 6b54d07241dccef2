export {
  type AtCommitOptions,
  BASE_PREFIX,
  cloneAtCommit,
  releaseSnapshots,
  snapshotAtCommit,
} from "./at-commit.js";
export {
  type Checkout,
  describeUncarried,
  prepareSnapshot,
  probeWorkspaceCap,
  type Snapshot,
  type SnapshotOptions,
  type Uncarried,
  WORKSPACE_BYTES_ENV,
  type WorkspacePatch,
} from "./cow/index.js";
export {
  noSpace,
  notRegular,
  openInside,
  PathError,
  readTextInside,
  translateWriteError,
  writeTextInside,
} from "./files.js";
export { commitAll, dirtyPaths, git, withTrustedGit } from "./git.js";
export { isWithin, MAX_SYMLINK_EXPANSIONS, type PathResolution, resolveInside } from "./paths.js";
