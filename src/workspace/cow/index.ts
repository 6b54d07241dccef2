export type { WorkspaceDiff } from "./diff.js";
export { gitDiffAgainstBase } from "./git-diff.js";
export type { Mounter } from "./mounters.js";
export { type MountEntry, mountsUnder, parseMountInfo, readMountInfo } from "./mountinfo.js";
export {
  currentMounter,
  liveMounts,
  MountError,
  type OverlayLayers,
  sweepStaleWorkspaces,
  useMounter,
} from "./mounts.js";
export { DEFAULT_TMPFS_BYTES, prepareSnapshot } from "./snapshot.js";
export type {
  Checkout,
  CheckoutKind,
  CheckoutOptions,
  Snapshot,
  SnapshotOptions,
  UpperStorage,
} from "./types.js";
