import { chmod, chown, mkdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { diffOverlay, type WorkspaceDiff } from "./diff.js";
import { patchOf } from "./git-diff.js";
import { mountOverlay, type OverlayLayers, removeTree, unmount } from "./mounts.js";
import { deleteTree } from "./remove.js";
import { dropCheckoutFs, mountCheckoutFs } from "./storage.js";
import type { Checkout, CheckoutContext, CheckoutStorage, UpperStorage, WorkspacePatch } from "./types.js";

/**
 * An overlayfs mount: `root` is the merged view, the lower layer is the snapshot, and this checkout's
 * writes land in its own upper directory, inside a filesystem of the checkout's own whose size is its
 * cap (storage.ts). Reset unmounts, starts a new empty upper layer and mounts again, so it costs an
 * unmount and a mount whatever changed; dispose detaches the checkout's filesystem whole.
 */
export class OverlayCheckout implements Checkout {
  readonly kind = "overlay";
  readonly warning = undefined;
  readonly root: string;
  private readonly layersDir: string;
  private generation = 0;
  private current: OverlayLayers | undefined;
  private disposing: Promise<void> | undefined;

  private constructor(
    private readonly ctx: CheckoutContext,
    readonly storage: CheckoutStorage,
    readonly capBytes: number,
  ) {
    this.root = join(ctx.dir, "root");
    this.layersDir = join(ctx.dir, "layers");
  }

  static async create(ctx: CheckoutContext, upper: UpperStorage, bytes: number): Promise<OverlayCheckout> {
    let storage: CheckoutStorage | undefined;
    try {
      // The merged root's mount point and the layers live in the checkout's filesystem, so they are
      // made and removed there: on the host disk (ext4 with discard here) each mkdir/rmdir pair cost
      // ~1 ms and an rm -rf of the layers ~30 ms, measured.
      storage = await mountCheckoutFs(ctx.dir, upper, bytes);
      const checkout = new OverlayCheckout(ctx, storage, bytes);
      await Promise.all([mkdir(checkout.root), mkdir(checkout.layersDir)]);
      await checkout.mountFresh();
      return checkout;
    } catch (err) {
      if (storage) await dropCheckoutFs(ctx.dir).catch(() => undefined);
      else await removeTree(ctx.dir).catch(() => undefined);
      throw err;
    }
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
    if (old && this.storage === "tmpfs") await removeLayers(old); // frees the tmpfs's capacity now
    await this.mountFresh();
    if (old && this.storage !== "tmpfs") {
      // On disk a big upper layer takes a while to delete: do it in the background (its space returns
      // to the cap as it goes; dispose drops the whole image, half-deleted layers and all).
      void removeLayers(old).catch(() => undefined);
    }
  }

  async diff(): Promise<WorkspaceDiff> {
    this.assertLive("diff");
    const layers = this.current;
    if (!layers) throw new Error(`checkout ${this.id} is not mounted (a reset failed); dispose it`);
    return diffOverlay(layers.lower, layers.upper, this.root);
  }

  async patch(): Promise<WorkspacePatch> {
    return patchOf(await this.diff(), this.root, this.ctx);
  }

  async gitDiff(): Promise<string> {
    return (await this.patch()).diff;
  }

  dispose(): Promise<void> {
    this.disposing ??= (async () => {
      try {
        // A removal still running in the old layers is dropped with the filesystem it works in.
        this.current = undefined;
        await dropCheckoutFs(this.ctx.dir);
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
  await Promise.all([deleteTree(layers.upper), deleteTree(layers.work)]);
}
