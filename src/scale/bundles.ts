/**
 * Repositories travel as git bundles named by their sha256: stored once (in Redis under a size cap,
 * or on a path every worker sees), fetched once per worker into its cache, and checked against the
 * name before use — a worker never runs on bytes that are not the ones the coordinator sent.
 */
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Redis } from "ioredis";
import { cacheDir } from "../tasks/index.js";
import { git } from "../workspace/index.js";
import { keys } from "./connection.js";
import type { BundleRef } from "./protocol.js";

/** A bundle larger than this goes to the shared path instead of Redis (Redis holds up to 512 MB a key). */
export const DEFAULT_REDIS_BUNDLE_CAP = 64 * 1024 * 1024;
/** Bundles in Redis outlive a run by this much, and every run that uses one renews it. */
const BUNDLE_TTL_S = 7 * 24 * 3600;

export interface BundleStoreOptions {
  /** Bundles up to this size go to Redis. */
  redisCapBytes?: number;
  /** A folder every worker mounts at the same path: bundles over the cap go there. */
  sharedDir?: string;
}

export function sha256(bytes: Buffer): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** The repository's bytes as a bundle: a `.bundle` file as it is, a directory bundled whole (--all). */
async function bundleBytes(repoPath: string): Promise<Buffer> {
  if (statSync(repoPath).isFile()) return readFileSync(repoPath);
  const dir = mkdtempSync(join(tmpdir(), "acilab-bundle-"));
  try {
    const file = join(dir, "repo.bundle");
    await git(repoPath, ["bundle", "create", "--quiet", file, "--all"]);
    return readFileSync(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The coordinator's side: each repository published once per process. */
export class BundlePublisher {
  private readonly made = new Map<string, Promise<BundleRef>>();
  constructor(
    private readonly redis: Redis,
    private readonly options: BundleStoreOptions = {},
  ) {}

  publish(repoPath: string): Promise<BundleRef> {
    let ref = this.made.get(repoPath);
    if (!ref) {
      ref = this.put(repoPath);
      ref.catch(() => this.made.delete(repoPath));
      this.made.set(repoPath, ref);
    }
    return ref;
  }

  private async put(repoPath: string): Promise<BundleRef> {
    const bytes = await bundleBytes(repoPath);
    const hash = sha256(bytes);
    const cap = this.options.redisCapBytes ?? DEFAULT_REDIS_BUNDLE_CAP;
    if (bytes.length <= cap) {
      const key = keys.bundle(hash);
      // Content-addressed: whoever wrote this key wrote these bytes; only the TTL is renewed.
      if ((await this.redis.expire(key, BUNDLE_TTL_S)) === 0)
        await this.redis.set(key, bytes, "EX", BUNDLE_TTL_S);
      return { sha256: hash, bytes: bytes.length, at: "redis" };
    }
    const shared = this.options.sharedDir;
    if (!shared)
      throw new Error(
        `the repository at ${repoPath} bundles to ${(bytes.length / 2 ** 20).toFixed(1)} MB, over the ${(cap / 2 ** 20).toFixed(0)} MB a bundle may take in Redis — give --bundles DIR, a folder every worker mounts at the same path, or raise --bundle-cap-mb`,
      );
    mkdirSync(shared, { recursive: true });
    const path = join(shared, `${hash}.bundle`);
    if (!existsSync(path)) {
      const tmp = `${path}.${process.pid}.tmp`;
      writeFileSync(tmp, bytes);
      renameSync(tmp, path);
    }
    return { sha256: hash, bytes: bytes.length, at: { path } };
  }
}

/** The worker's side: the bundle in this machine's cache, fetched and verified once. */
export async function fetchBundle(
  redis: Redis,
  ref: BundleRef,
  cache = join(cacheDir(), "bundles"),
): Promise<string> {
  const path = join(cache, `${ref.sha256}.bundle`);
  if (existsSync(path)) return path; // written only after its hash was checked
  let bytes: Buffer | null;
  if (ref.at === "redis") {
    bytes = await redis.getBuffer(keys.bundle(ref.sha256));
    if (bytes === null)
      throw new Error(
        `bundle ${ref.sha256.slice(0, 12)} is not in Redis (expired or deleted) — run the coordinator again to publish it`,
      );
  } else {
    if (!existsSync(ref.at.path))
      throw new Error(
        `bundle ${ref.at.path} does not exist on this worker — mount the coordinator's --bundles folder at the same path`,
      );
    bytes = readFileSync(ref.at.path);
  }
  const got = sha256(bytes);
  if (got !== ref.sha256)
    throw new Error(
      `bundle ${ref.sha256.slice(0, 12)} does not match its name (its bytes hash to ${got.slice(0, 12)}) — refused; someone changed it after it was published`,
    );
  mkdirSync(cache, { recursive: true });
  const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(tmp, bytes);
  renameSync(tmp, path);
  return path;
}
