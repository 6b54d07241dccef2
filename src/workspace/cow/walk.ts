/**
 * Reading a tree an agent wrote, the openat way. Node has no openat, but on Linux
 * `/proc/self/fd/<fd>/<name>` is one: the kernel starts from the open directory, whatever its path,
 * so no path grows with the depth (a tree deeper than PATH_MAX reads like any other) and no component
 * above `name` is looked up again — a directory swapped for a symlink after it was opened changes
 * nothing. Every open is O_NOFOLLOW; a file is opened O_NONBLOCK and must be regular, so a FIFO put in
 * its place can never block the reader.
 */
import type { BigIntStats, Dirent } from "node:fs";
import { constants } from "node:fs";
import { type FileHandle, lstat, open, readdir, readlink } from "node:fs/promises";

const HAS_PROC_FD = process.platform === "linux";

const gone = (err: unknown) => {
  const code = (err as NodeJS.ErrnoException).code;
  return code === "ENOENT" || code === "ENOTDIR" || code === "ELOOP";
};

/** An open directory; names below it are reached through it. Close it when done. */
export class Dir {
  private constructor(
    private readonly handle: FileHandle,
    /** Its path, for systems without /proc/self/fd only. */
    private readonly path: string,
  ) {}

  /** Open the directory at `path` (its last component must not be a symlink). */
  static open(path: string): Promise<Dir> {
    return Dir.openAs(path, path);
  }

  private static async openAs(target: string, path: string): Promise<Dir> {
    const handle = await open(target, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
    return new Dir(handle, path);
  }

  /** The path that reaches `name` inside this directory without resolving anything above it. */
  at(name: string): string {
    return HAS_PROC_FD ? `/proc/self/fd/${this.handle.fd}/${name}` : `${this.path}/${name}`;
  }

  list(): Promise<Dirent[]> {
    return readdir(HAS_PROC_FD ? `/proc/self/fd/${this.handle.fd}` : this.path, { withFileTypes: true });
  }

  /** The subdirectory `name`, or undefined if there is none (or it is not a directory any more). */
  async sub(name: string): Promise<Dir | undefined> {
    try {
      return await Dir.openAs(this.at(name), `${this.path}/${name}`);
    } catch (err) {
      if (gone(err)) return undefined;
      throw err;
    }
  }

  async lstat(name: string): Promise<BigIntStats | undefined> {
    try {
      return await lstat(this.at(name), { bigint: true });
    } catch (err) {
      if (gone(err)) return undefined;
      throw err;
    }
  }

  readlink(name: string): Promise<string> {
    return readlink(this.at(name));
  }

  /** The regular file `name` opened for reading, or undefined if it is not one (any more). */
  async file(name: string): Promise<FileHandle | undefined> {
    let handle: FileHandle;
    try {
      handle = await open(this.at(name), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    } catch (err) {
      if (gone(err) || (err as NodeJS.ErrnoException).code === "ENXIO") return undefined;
      throw err;
    }
    if ((await handle.stat()).isFile()) return handle;
    await handle.close();
    return undefined;
  }

  close(): Promise<void> {
    return this.handle.close();
  }
}

/**
 * Run `fn` on directories being opened (a root path, or `parent.sub(name)`: undefined where there is
 * none), closing every one that opened afterwards, whatever happens.
 */
export async function withDirs<T>(
  opening: ReadonlyArray<Promise<Dir | undefined> | undefined>,
  fn: (dirs: Array<Dir | undefined>) => Promise<T>,
): Promise<T> {
  const settled = await Promise.allSettled(opening.map((p) => p ?? Promise.resolve(undefined)));
  const dirs = settled.map((s) => (s.status === "fulfilled" ? s.value : undefined));
  try {
    const failed = settled.find((s) => s.status === "rejected");
    if (failed) throw failed.reason;
    return await fn(dirs);
  } finally {
    await Promise.all(dirs.map((d) => d?.close()));
  }
}
