/**
 * Proof of life for the sandbox cgroups an acilab process leaves under /sys/fs/cgroup, that another
 * acilab process can check in any pid namespace: each owner listens on a Unix socket named by its
 * token for as long as it lives (a killed owner's socket refuses connections).
 *
 * Workspace directories prove ownership differently, with an flock(2) on a file inside them
 * (src/workspace/cow/locks.ts): a lock file lives and dies with its directory, so it needs no
 * separate cleanup and works however the owner exited; cgroupfs directories cannot hold such a file,
 * hence these markers for cgroups. Scratch directories in the temp directory (a task's base
 * snapshot, a browser's profile) carry a marker file naming the token (leftovers.ts).
 */
export {
  dirOwnerState,
  markOwned,
  OWNER_FILE,
  type OwnerMark,
  readOwnerMark,
  releaseOwned,
  type SweepOptions,
  sweepDeadOwners,
} from "./leftovers.js";
export {
  forgetOwner,
  listOwners,
  OWNER_TOKEN,
  type OwnerState,
  ownerParent,
  ownerState,
  ownersDir,
  ownerToken,
} from "./liveness.js";
