import { rm, rmdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { detachTree, MountError, mountImage, mountTmpfs, removeTree } from "./mounts.js";
import type { CheckoutStorage, UpperStorage } from "./types.js";

/**
 * Every overlay checkout lives in a filesystem of its own, mounted over its directory, whose size is
 * the checkout's cap: a sparse ext4 image on a loop device for "disk" (the image file grows with what
 * is written, up to the cap), a tmpfs for "tmpfs". Both hold the merged root's mount point and the
 * layers, so making and dropping them never touches the host's directory tree, and disposing of a
 * checkout is one detach — no walk of whatever tree the agent left.
 */

/**
 * Failures in a row after which images are not tried again in this process: the machine has no
 * mkfs.ext4 or no loop devices. One failure may be a race for a loop device; three are not.
 */
export const MAX_IMAGE_FAILURES = 3;
let imageFailures = 0;
let imageProblem: string | undefined;

/** Why the last ext4 image could not be made, if it could not (for doctor and tests). */
export function diskImageProblem(): string | undefined {
  return imageProblem;
}

/** The image of the checkout at `dir`: next to it, outside the filesystem it holds. */
export const imagePath = (dir: string) => `${dir}.img`;

/** A formatted image every checkout of this size next to `dir` is copied from (removed with them). */
const templatePath = (dir: string, bytes: number) => join(dirname(dir), `ext4-template-${bytes}.img`);

/**
 * Mount the checkout's filesystem at `dir`. Where a disk image cannot be made, a tmpfs of the same
 * size keeps the cap (in memory rather than on disk).
 */
export async function mountCheckoutFs(
  dir: string,
  upper: UpperStorage,
  bytes: number,
): Promise<CheckoutStorage> {
  if (upper === "disk" && imageFailures < MAX_IMAGE_FAILURES) {
    try {
      await mountImage(imagePath(dir), bytes, dir, templatePath(dir, bytes));
      imageFailures = 0;
      imageProblem = undefined;
      return "ext4 image";
    } catch (err) {
      if (!(err instanceof MountError)) throw err;
      imageFailures++;
      imageProblem = err.message;
    }
  }
  await mountTmpfs(dir, bytes);
  return "tmpfs";
}

/**
 * Detach the checkout's filesystem together with the overlay inside it (one call: MNT_DETACH takes the
 * subtree), remove the then empty mount point with one rmdir, which cannot reach into a mount, and
 * delete the image; anything unexpected goes the long way (removeTree unmounts whatever is below).
 */
export async function dropCheckoutFs(dir: string): Promise<void> {
  try {
    await detachTree(dir);
    await rmdir(dir);
  } catch {
    await removeTree(dir);
  }
  await rm(imagePath(dir), { force: true });
}
