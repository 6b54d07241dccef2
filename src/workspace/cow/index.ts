export {
  DEFAULT_WORKSPACE_BYTES,
  MIN_WORKSPACE_BYTES,
  parseByteSize,
  WORKSPACE_BYTES_ENV,
  workspaceBytesFromEnv,
} from "./capacity.js";
export { describeUncarried, type Uncarried, type WorkspaceDiff } from "./diff.js";
export { gitDiffAgainstBase } from "./git-diff.js";
export type { Mounter } from "./mounters.js";
export { type MountEntry, mountsUnder, parseMountInfo, readMountInfo } from "./mountinfo.js";
export {
  currentMounter,
  liveMounts,
  MountError,
  type OverlayLayers,
  ownDirectory,
  removeTree,
  useMounter,
} from "./mounts.js";
export { probeWorkspaceCap, type WorkspaceCapCheck } from "./probe.js";
export { prepareSnapshot } from "./snapshot.js";
export { diskImageProblem } from "./storage.js";
export { sweepStaleWorkspaces } from "./sweep.js";
export type {
  Checkout,
  CheckoutKind,
  CheckoutOptions,
  CheckoutStorage,
  Snapshot,
  SnapshotOptions,
  UpperStorage,
  WorkspacePatch,
} from "./types.js";
