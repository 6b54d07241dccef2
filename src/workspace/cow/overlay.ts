import { chmod, chown, mkdir, rm, rmdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { diffOverlay, type WorkspaceDiff } from "./diff.js";
import { gitDiffAgainstBase } from "./git-diff.js";
import { detachTree, mountOverlay, mountTmpfs, type OverlayLayers, removeTree, unmount } from "./mounts.js";
import type { Checkout, CheckoutContext, UpperStorage } from "./types.js";

/**
 * An overlayfs mount: `root` is the merged view, the lower layer is the snapshot, and this checkout's
 * writes land in its own upper directory. Reset unmounts, starts a new empty upper layer and mounts
 * again; on disk the old one is deleted in the background, so reset costs an unmount and a mount
 * whatever changed.
 */
export class OverlayCheckout implements Checkout {
  readonly kind = "overlay";
  readonly warning = undefined;
  readonly root: string;
  private readonly layersDir: string;
  private generation = 0;
  private current: OverlayLayers | undefined;
  private readonly trash = new Set<Promise<void>>();
  private disposing: Promise<void> | undefined;

  private constructor(
    private readonly ctx: CheckoutContext,
    private readonly upper: UpperStorage,
  ) {
    this.root = join(ctx.dir, "root");
    this.layersDir = join(ctx.dir, "layers");
  }

  static async create(
    ctx: CheckoutContext,
    upper: UpperStorage,
    tmpfsBytes: number,
  ): Promise<OverlayCheckout> {
    const checkout = new OverlayCheckout(ctx, upper);
    try {
      // A tmpfs upper is mounted over the whole checkout directory, so the merged root's mount point
      // and the layers are made and removed in memory: on the host disk (ext4 with discard here) each
      // mkdir/rmdir pair cost ~1 ms and an rm -rf of the layers ~30 ms, measured.
      if (upper === "tmpfs") await mountTmpfs(ctx.dir, tmpfsBytes);
      await Promise.all([mkdir(checkout.root), mkdir(checkout.layersDir)]);
      await checkout.mountFresh();
    } catch (err) {
      await removeTree(ctx.dir).catch(() => undefined);
      throw err;
    }
    return checkout;
  }

  get id(): string {
    return this.ctx.id;
  }

  get base(): string {
    return this.ctx.base;
  }

  get layers(): OverlayLayers | undefined {
    return this.current;
  }

  private async mountFresh(): Promise<void> {
    this.generation++;
    const layers = {
      lower: this.ctx.lower,
      upper: join(this.layersDir, `upper-${this.generation}`),
      work: join(this.layersDir, `work-${this.generation}`),
    };
    await Promise.all([mkdir(layers.upper), mkdir(layers.work)]);
    // The merged root takes the upper directory's owner and mode: make them the snapshot's, so a
    // sandbox user who may write the repository's top level still can.
    const top = await stat(layers.lower);
    await chown(layers.upper, top.uid, top.gid);
    await chmod(layers.upper, top.mode & 0o7777);
    await mountOverlay(layers, this.root);
    this.current = layers;
  }

  async reset(): Promise<void> {
    this.assertLive("reset");
    const old = this.current;
    await unmount(this.root, { lazy: false });
    this.current = undefined;
    if (old && this.upper === "tmpfs") await removeLayers(old); // frees the tmpfs's capacity now
    await this.mountFresh();
    if (old && this.upper === "disk") {
      // On disk a big upper layer takes a while to delete: do it in the background (dispose waits).
      const removal = removeLayers(old).catch(() => undefined); // dispose removes the directory anyway
      this.trash.add(removal);
      void removal.then(() => this.trash.delete(removal));
    }
  }

  async diff(): Promise<WorkspaceDiff> {
    this.assertLive("diff");
    const layers = this.current;
    if (!layers) throw new Error(`checkout ${this.id} is not mounted (a reset failed); dispose it`);
    return diffOverlay(layers.lower, layers.upper, this.root);
  }

  async gitDiff(): Promise<string> {
    this.assertLive("gitDiff");
    return gitDiffAgainstBase(this.root, this.base, {
      objects: join(this.ctx.lower, ".git", "objects"),
      index: this.ctx.baseIndex,
    });
  }

  dispose(): Promise<void> {
    this.disposing ??= (async () => {
      try {
        await Promise.all(this.trash);
        if (this.upper === "tmpfs") {
          this.current = undefined;
          await dropTmpfs(this.ctx.dir);
        } else {
          if (this.current) await unmount(this.root, { lazy: true });
          this.current = undefined;
          await removeTree(this.ctx.dir);
        }
      } finally {
        this.ctx.onDispose(this);
      }
    })();
    return this.disposing;
  }

  private assertLive(what: string): void {
    if (this.disposing) throw new Error(`checkout ${this.id} is disposed; cannot ${what} it`);
  }
}

async function removeLayers(layers: OverlayLayers): Promise<void> {
  await Promise.all([
    rm(layers.upper, { recursive: true, force: true }),
    rm(layers.work, { recursive: true, force: true }),
  ]);
}

/**
 * Detach the tmpfs a checkout lives in together with the overlay inside it (one call), and remove its
 * then empty mount point with one rmdir, which cannot reach into a mount; anything unexpected goes the
 * long way (removeTree unmounts whatever is below).
 */
async function dropTmpfs(dir: string): Promise<void> {
  try {
    await detachTree(dir);
    await rmdir(dir);
  } catch {
    await removeTree(dir);
  }
}
