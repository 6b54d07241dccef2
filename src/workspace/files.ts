import { constants } from "node:fs";
import { type FileHandle, open, readlink } from "node:fs/promises";
import { basename, dirname } from "node:path";
import { isWithin, resolveInside } from "./paths.js";

/** A path failure phrased for the model; the file tools turn it into an error observation. */
export class PathError extends Error {
  constructor(
    readonly kind:
      | "outside_workspace"
      | "not_found"
      | "is_directory"
      | "already_exists"
      | "invalid_arguments"
      | "no_space",
    message: string,
  ) {
    super(message);
    this.name = "PathError";
  }
}

const HAS_PROC_FD = process.platform === "linux";

/** Where an open descriptor really points, from the kernel's view (/proc/self/fd). */
async function realPathOf(handle: FileHandle): Promise<string | undefined> {
  if (!HAS_PROC_FD) return undefined;
  return readlink(`/proc/self/fd/${handle.fd}`);
}

/** What the file tools say about a FIFO, socket or device: the host never reads or writes one. */
export function notRegular(path: string): PathError {
  return new PathError(
    "invalid_arguments",
    `${path} is not a regular file (a FIFO, socket or device); the file tools read and write regular files only — look at it with shell (ls -l)`,
  );
}

/**
 * What the file tools say when the workspace is full (its size cap, or the disk): an observation the
 * model can act on, not a crash of the run.
 */
export function noSpace(path: string, code: string | undefined): PathError {
  const what = code === "EDQUOT" ? "its quota" : "its size cap";
  return new PathError(
    "no_space",
    `the workspace is full (${what} is reached: no space left on device), so ${path} could not be written and may now be incomplete — free space first (delete large or generated files with shell, e.g. rm), then write it again`,
  );
}

const FULL = new Set(["ENOSPC", "EDQUOT", "EFBIG"]);

/** ENOSPC and its kin, as the error they are for a write to `path`; anything else unchanged. */
export function translateWriteError(err: unknown, path: string): unknown {
  const code = (err as NodeJS.ErrnoException).code;
  return code !== undefined && FULL.has(code) ? noSpace(path, code) : err;
}

/**
 * Open a file inside the workspace without being fooled by a symlink swapped in after the check:
 * the parent directory is opened (no-follow) and verified through /proc/self/fd, and the file is then
 * opened relative to that pinned directory, again no-follow, and verified once more. The open never
 * blocks (O_NONBLOCK: a FIFO put in a file's place would otherwise wait for a writer forever), and
 * only regular files and directories are handed back.
 */
export async function openInside(
  root: string,
  path: string,
  flags: number,
  mode = 0o644,
): Promise<FileHandle> {
  const resolved = resolveInside(root, path);
  if (!resolved.ok) throw new PathError("outside_workspace", resolved.error);
  if (resolved.abs === root) throw new PathError("is_directory", `${path} is the workspace root, not a file`);
  const parent = await openDirectory(root, dirname(resolved.abs), path);
  try {
    const viaParent = HAS_PROC_FD ? `/proc/self/fd/${parent.fd}/${basename(resolved.abs)}` : resolved.abs;
    let handle: FileHandle;
    try {
      handle = await open(viaParent, flags | constants.O_NOFOLLOW | constants.O_NONBLOCK, mode);
    } catch (err) {
      throw translateOpenError(err, path);
    }
    const stat = await handle.stat();
    if (!stat.isFile() && !stat.isDirectory()) {
      await handle.close();
      throw notRegular(path);
    }
    const real = await realPathOf(handle);
    if (real !== undefined && !isWithin(root, real)) {
      await handle.close();
      throw new PathError(
        "outside_workspace",
        `${path} changed to point outside the workspace while opening it; refusing`,
      );
    }
    if (flags & constants.O_CREAT) await adoptDirectoryOwner(handle, parent);
    return handle;
  } finally {
    await parent.close();
  }
}

/**
 * A sandbox runs as its own uid and owns the workspace. A file the host creates there as root would be
 * read-only to the sandbox, so a root-owned file in a directory owned by someone else takes that owner.
 */
async function adoptDirectoryOwner(file: FileHandle, directory: FileHandle): Promise<void> {
  if (process.getuid?.() !== 0) return;
  const [f, d] = await Promise.all([file.stat(), directory.stat()]);
  if (f.uid === 0 && d.uid !== 0) await file.chown(d.uid, d.gid);
}

async function openDirectory(root: string, dir: string, shownPath: string): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await open(dir, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") {
      throw new PathError(
        "not_found",
        `the directory of ${shownPath} does not exist; create it first or check the path`,
      );
    }
    if (code === "ELOOP") {
      throw new PathError(
        "outside_workspace",
        `${shownPath} goes through a symbolic link that changed; refusing`,
      );
    }
    throw err;
  }
  const real = await realPathOf(handle);
  if (real !== undefined && !isWithin(root, real)) {
    await handle.close();
    throw new PathError("outside_workspace", `${shownPath} changed to point outside the workspace; refusing`);
  }
  return handle;
}

function translateOpenError(err: unknown, path: string): unknown {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === "ENOENT")
    return new PathError("not_found", `${path} does not exist; use find_file or glob to locate it`);
  if (code === "EISDIR") return new PathError("is_directory", `${path} is a directory; give a file path`);
  if (code === "EEXIST")
    return new PathError("already_exists", `${path} already exists; edit it with str_replace instead`);
  if (code === "ELOOP")
    return new PathError("outside_workspace", `${path} is a symbolic link; refusing to follow it`);
  if (code === "ENXIO" || code === "EOPNOTSUPP") return notRegular(path); // a FIFO with no reader, a socket
  if (code === "EACCES" || code === "EPERM")
    return new PathError(
      "invalid_arguments",
      `${path} cannot be opened (permission denied); check its mode with shell (ls -l) and chmod it`,
    );
  return translateWriteError(err, path);
}

export async function readTextInside(root: string, path: string): Promise<string> {
  const handle = await openInside(root, path, constants.O_RDONLY);
  try {
    const stat = await handle.stat();
    if (stat.isDirectory()) throw new PathError("is_directory", `${path} is a directory; give a file path`);
    return await handle.readFile({ encoding: "utf8" });
  } finally {
    await handle.close();
  }
}

/** `mode`: "new" fails if the file exists, "existing" fails if it does not, "any" does either. */
export async function writeTextInside(
  root: string,
  path: string,
  content: string,
  mode: "new" | "existing" | "any",
): Promise<void> {
  const create = mode === "existing" ? 0 : constants.O_CREAT;
  const exclusive = mode === "new" ? constants.O_EXCL : 0;
  const handle = await openInside(root, path, constants.O_WRONLY | constants.O_TRUNC | create | exclusive);
  try {
    await handle.writeFile(content, { encoding: "utf8" });
  } catch (err) {
    throw translateWriteError(err, path);
  } finally {
    await handle.close();
  }
}
