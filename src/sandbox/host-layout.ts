import { detectRootLayout, type RootLayout } from "./bwrap/argv.js";
import { prepareEtc } from "./bwrap/etc.js";

/** What every boundary (bwrap, runsc, the browser box) builds its read-only root from. */
export interface HostLayout {
  root: RootLayout;
  /** The curated /etc copy (prepareEtc): bound read-only as the sandbox's /etc. */
  etc: string;
}

let root: RootLayout | undefined;

/**
 * The host's root layout, read once per process, and the sandbox /etc copy, checked on every call:
 * the copy lives in the shared temp directory, and a copy removed under a long-lived process (a
 * temp cleaner, a user's `rm -rf /tmp/acilab-*`) must be made again rather than handed to bwrap or
 * gVisor's gofer, which fail on a missing bind source with an error that names neither.
 */
export function hostLayout(): HostLayout {
  root ??= detectRootLayout();
  return { root, etc: prepareEtc(root.etc) };
}
