import type { Uncarried, WorkspaceDiff } from "./diff.js";
import type { OverlayLayers } from "./mounts.js";

export type CheckoutKind = "overlay" | "copy";

/** Where an overlay checkout keeps its upper and work directories. */
export type UpperStorage = "disk" | "tmpfs";

/** What holds a checkout's writes: its own size-capped filesystem, or (a copy) the host's. */
export type CheckoutStorage = "ext4 image" | "tmpfs" | "copy";

/** A checkout's changes as a git patch, and the changes a patch cannot carry. */
export interface WorkspacePatch {
  /** `git diff --binary` against the base; empty when nothing it can carry changed. */
  diff: string;
  /** FIFOs, sockets and devices, trees too deep for git: left out of `diff`, listed here. */
  uncarried: Uncarried[];
}

/** One rollout's private, writable view of a snapshot. */
export interface Checkout {
  readonly id: string;
  /** The directory to work in (the overlay's merged directory, or the copy); a real path. */
  readonly root: string;
  readonly kind: CheckoutKind;
  /** Set when this checkout is not what was asked for (a copy where overlayfs was wanted), and why. */
  readonly warning: string | undefined;
  /** The commit the snapshot holds; `gitDiff` diffs against it. */
  readonly base: string;
  /** The overlay's layers as mounted now (the upper changes on every reset); undefined for a copy. */
  readonly layers: OverlayLayers | undefined;
  /** Where the writes go: an ext4 image or a tmpfs of `capBytes`, or, for a copy, the host's disk. */
  readonly storage: CheckoutStorage;
  /** Most bytes the writes may take (past it they get ENOSPC); undefined for a copy, which has no cap. */
  readonly capBytes: number | undefined;
  /** Back to the snapshot's state: drop the upper layer and remount (a copy: copy again). */
  reset(): Promise<void>;
  /** What this rollout changed relative to the snapshot. */
  diff(): Promise<WorkspaceDiff>;
  /** The same as a git patch against `base`, and what it cannot carry; writes nothing into the checkout. */
  patch(): Promise<WorkspacePatch>;
  /** `patch().diff`. */
  gitDiff(): Promise<string>;
  /** Unmount (lazily if still in use) and remove everything; safe to call twice. */
  dispose(): Promise<void>;
}

export interface CheckoutOptions {
  /**
   * "disk" (default): a sparse ext4 image next to the snapshot (a tmpfs where images cannot be made).
   * "tmpfs": a tmpfs. Either is mounted per checkout, and is as large as `maxBytes`.
   */
  upper?: UpperStorage;
  /**
   * The checkout's size cap: writes past it get ENOSPC. Default: ACILAB_WORKSPACE_BYTES, else
   * DEFAULT_WORKSPACE_BYTES (4 GiB). A copy checkout has no cap.
   */
  maxBytes?: number;
}

export interface Snapshot {
  /** The read-only lower directory every checkout starts from (a git repository at `base`). */
  readonly dir: string;
  readonly base: string;
  /** How `dir` is kept unchanged: a read-only bind mount, or nothing (see `warning`). */
  readonly protection: "read-only bind mount" | "none";
  readonly warning: string | undefined;
  checkout(options?: CheckoutOptions): Promise<Checkout>;
  /** Checkouts not yet disposed. */
  readonly checkouts: readonly Checkout[];
  /** Dispose every checkout, drop the read-only mount, remove what was created. */
  dispose(): Promise<void>;
}

export interface SnapshotOptions {
  /**
   * Where to put the prepared copy (must not exist, or be empty). It is kept on dispose, so a later
   * process can reuse it with `prepared: true`. Default: a temporary directory, removed on dispose.
   */
  into?: string;
  /** `sourceDir` is already a git repository with a commit and a clean tree: use it in place. */
  prepared?: boolean;
  /**
   * With `prepared`: `sourceDir` was made for this snapshot (a clone) and goes with it — dispose
   * removes it, and so does the sweep of a later process if this one is killed first.
   */
  ownsSource?: boolean;
  /** Commit message when the copy has to be committed. */
  message?: string;
  /** Parent of the snapshot's scratch directory (upper layers, copies). Default: os.tmpdir(). */
  scratchDir?: string;
  /** "auto" (default): overlay where it works, else a copy with a warning. "copy": always copy. */
  mode?: "auto" | "copy";
  /** Defaults for every checkout. */
  checkout?: CheckoutOptions;
  /**
   * Let other users pass through (not list) the scratch folder, mode 0711: a sandbox that runs as
   * another uid must reach the checkouts below it. Default false (0700).
   */
  traversable?: boolean;
}

/** What a snapshot hands each checkout it makes. */
export interface CheckoutContext {
  id: string;
  /** The checkout's own empty directory; everything it makes lives below it. */
  dir: string;
  lower: string;
  base: string;
  /** The snapshot's `.git/index`, which matches `base`; seeds gitDiff. */
  baseIndex: string | undefined;
  onDispose: (checkout: Checkout) => void;
}
