import { execFile } from "node:child_process";
import { cpSync } from "node:fs";
import { mkdir, rename } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { diffTrees, type WorkspaceDiff } from "./diff.js";
import { patchOf } from "./git-diff.js";
import { removeTree } from "./mounts.js";
import { deleteTree } from "./remove.js";
import type { Checkout, CheckoutContext, WorkspacePatch } from "./types.js";

const run = promisify(execFile);

/**
 * Copy the contents of `src` into the existing directory `dest`, keeping modes, times and symlinks.
 * GNU `cp -a --reflink=auto` shares blocks on btrfs/xfs and is faster than Node's copy elsewhere;
 * where there is no GNU cp, Node's cpSync does the same job.
 */
export async function copyTree(src: string, dest: string): Promise<void> {
  try {
    await run("cp", ["-a", "--reflink=auto", `${src}/.`, dest], {
      env: { PATH: "/usr/bin:/bin", LC_ALL: "C" },
    });
  } catch (err) {
    const e = err as { code?: string | number; stderr?: string; message: string };
    const noGnuCp = e.code === "ENOENT" || /unrecognized option|illegal option/.test(e.stderr ?? "");
    if (!noGnuCp) throw new Error(`copying ${src} to ${dest} failed: ${(e.stderr ?? e.message).trim()}`);
    cpSync(src, dest, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true });
  }
}

/**
 * The fallback where overlayfs cannot be mounted: a full copy of the snapshot. Same contract, but
 * checkout and reset cost a copy of the repository, and diff compares the whole tree. It has no size
 * cap: where nothing can be mounted, no filesystem of its own can hold it (RLIMIT_FSIZE still bounds
 * each file a sandboxed program writes).
 */
export class CopyCheckout implements Checkout {
  readonly kind = "copy";
  readonly layers = undefined;
  readonly storage = "copy";
  readonly capBytes = undefined;
  readonly root: string;
  private generation = 0;
  private disposing: Promise<void> | undefined;

  private constructor(
    private readonly ctx: CheckoutContext,
    readonly warning: string,
  ) {
    this.root = join(ctx.dir, "root");
  }

  static async create(ctx: CheckoutContext, warning: string): Promise<CopyCheckout> {
    const checkout = new CopyCheckout(ctx, warning);
    try {
      await mkdir(checkout.root);
      await copyTree(ctx.lower, checkout.root);
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

  async reset(): Promise<void> {
    this.assertLive("reset");
    const trash = join(this.ctx.dir, `trash-${++this.generation}`);
    await rename(this.root, trash);
    await mkdir(this.root);
    await Promise.all([copyTree(this.ctx.lower, this.root), deleteTree(trash)]);
  }

  async diff(): Promise<WorkspaceDiff> {
    this.assertLive("diff");
    return diffTrees(this.ctx.lower, this.root);
  }

  async patch(): Promise<WorkspacePatch> {
    return patchOf(await this.diff(), this.root, this.ctx);
  }

  async gitDiff(): Promise<string> {
    return (await this.patch()).diff;
  }

  dispose(): Promise<void> {
    this.disposing ??= removeTree(this.ctx.dir).finally(() => this.ctx.onDispose(this));
    return this.disposing;
  }

  private assertLive(what: string): void {
    if (this.disposing) throw new Error(`checkout ${this.id} is disposed; cannot ${what} it`);
  }
}
