import { constants } from "node:fs";
import { type FileHandle, lchown, lstat, mkdir, readdir, stat, unlink } from "node:fs/promises";
import { basename, dirname } from "node:path";
import { openInside, PathError, resolveInside, translateWriteError } from "../../workspace/index.js";
import { ToolFailure } from "./results.js";

/**
 * The file tools' only door to the disk. Every path goes through the workspace helpers (resolveInside,
 * openInside, and writeTextInside in the callers); the two operations they lack — mkdir and unlink — are done relative to
 * a parent directory pinned with openInside, so a symlink swapped in after the check cannot redirect them.
 */

/** Bigger files are data or generated code; reading one whole would stall the tool and flood the context. */
export const MAX_TEXT_FILE_BYTES = 5 * 1024 * 1024;

/** A directory listing in an error is a hint, not an inventory; 30 names is enough to pick the next path. */
export const DIRECTORY_HINT_ENTRIES = 30;

const HAS_PROC_FD = process.platform === "linux";

/** A file's text and where it really is. `exact` is false when bytes were not valid UTF-8. */
export interface WorkspaceText {
  rel: string;
  text: string;
  exact: boolean;
}

/** Workspace-relative real path of a model-supplied path, or a PathError saying why not. */
export function workspacePath(root: string, path: string): string {
  const resolved = resolveInside(root, path);
  if (!resolved.ok) throw new PathError("outside_workspace", resolved.error);
  return resolved.rel;
}

/** How a path is shown to the model. */
export function shown(rel: string): string {
  return rel === "" ? "." : rel;
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const lenientUtf8 = new TextDecoder("utf-8", { ignoreBOM: true });

async function listing(dir: string, rel: string): Promise<string> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries.map((e) => (e.isDirectory() ? `${e.name}/` : e.name)).sort();
  const first = names.slice(0, DIRECTORY_HINT_ENTRIES);
  const more = names.length - first.length;
  const example = names.find((n) => !n.endsWith("/"));
  const prefix = rel === "" ? "" : `${rel}/`;
  return [
    `${shown(rel)} is a directory, not a file.`,
    names.length === 0
      ? " It is empty."
      : ` It contains: ${first.join(", ")}${more > 0 ? ` (and ${more} more)` : ""}.`,
    example ? ` Call the tool with a file path such as ${prefix}${example},` : " Give a file path,",
    " or use find_file / glob to look deeper.",
  ].join("");
}

async function directoryFailure(
  root: string,
  rel: string,
  handle: FileHandle | undefined,
): Promise<ToolFailure> {
  // Listing through the already-open descriptor reads the directory that was checked, not a swapped one.
  const dir = rel === "" ? root : handle && HAS_PROC_FD ? `/proc/self/fd/${handle.fd}` : `${root}/${rel}`;
  return new ToolFailure("is_directory", await listing(dir, rel));
}

/** Read a text file inside the workspace. Directories, huge files and binaries become ToolFailures. */
export async function readWorkspaceText(root: string, path: string): Promise<WorkspaceText> {
  const rel = workspacePath(root, path);
  if (rel === "") throw await directoryFailure(root, rel, undefined);
  const handle = await openInside(root, rel, constants.O_RDONLY);
  try {
    const stat = await handle.stat();
    if (stat.isDirectory()) throw await directoryFailure(root, rel, handle);
    if (stat.size > MAX_TEXT_FILE_BYTES) {
      throw new ToolFailure(
        "invalid_arguments",
        `${rel} is ${stat.size} bytes, over the ${MAX_TEXT_FILE_BYTES}-byte limit of the file tools; inspect it with shell (head, grep) instead`,
      );
    }
    const bytes = await handle.readFile();
    if (bytes.includes(0)) {
      throw new ToolFailure(
        "invalid_arguments",
        `${rel} is a binary file (it contains NUL bytes); use shell to inspect it`,
      );
    }
    try {
      return { rel, text: strictUtf8.decode(bytes), exact: true };
    } catch {
      return { rel, text: lenientUtf8.decode(bytes), exact: false };
    }
  } finally {
    await handle.close();
  }
}

/** Like readWorkspaceText, but a missing file is `text: null` (only if its directory exists or can be made). */
export async function readIfExists(
  root: string,
  path: string,
): Promise<{ rel: string; text: string | null; exact: boolean }> {
  const rel = workspacePath(root, path);
  try {
    return await readWorkspaceText(root, rel);
  } catch (err) {
    if (err instanceof PathError && err.kind === "not_found") return { rel, text: null, exact: true };
    throw err;
  }
}

/** Text the edit tools may rewrite: a lossy UTF-8 decode would corrupt the bytes it replaced. */
export function requireExact(file: WorkspaceText): string {
  if (!file.exact) {
    throw new ToolFailure(
      "invalid_arguments",
      `${file.rel} is not valid UTF-8; rewriting it with these tools would corrupt it — edit it with shell (e.g. sed) instead`,
    );
  }
  return file.text;
}

/** Run `action` on the real path of `name` inside the directory `parentRel`, pinned against swaps. */
async function inPinnedDir<T>(
  root: string,
  parentRel: string,
  name: string,
  action: (path: string) => Promise<T>,
): Promise<T> {
  if (parentRel === "") return action(`${root}/${name}`);
  const handle = await openInside(root, parentRel, constants.O_RDONLY | constants.O_DIRECTORY);
  try {
    return await action(HAS_PROC_FD ? `/proc/self/fd/${handle.fd}/${name}` : `${root}/${parentRel}/${name}`);
  } finally {
    await handle.close();
  }
}

/** Workspace-relative parent of a workspace-relative path ("" for the root). */
function parentOf(rel: string): string {
  return dirname(rel) === "." ? "" : dirname(rel);
}

/** As root, a new directory takes its parent's owner, so a sandbox that owns the workspace can use it. */
async function adoptParentOwner(path: string): Promise<void> {
  if (process.getuid?.() !== 0) return;
  const parent = await stat(dirname(path));
  if (parent.uid !== 0) await lchown(path, parent.uid, parent.gid);
}

/** mkdir that is content with an existing directory; true when it made one. */
async function makeDirectory(path: string, shownDir: string, forFile: string): Promise<boolean> {
  try {
    await mkdir(path);
    await adoptParentOwner(path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw translateWriteError(err, shownDir);
    if ((await lstat(path)).isDirectory()) return false;
    throw new PathError(
      "already_exists",
      `${shownDir} exists and is not a directory, so ${forFile} cannot be created`,
    );
  }
}

/** Create the missing directories above `rel`, each checked by resolveInside; returns those created. */
export async function ensureParentDirs(root: string, rel: string): Promise<string[]> {
  const created: string[] = [];
  let parent = "";
  for (const part of parentOf(rel)
    .split("/")
    .filter((p) => p !== "")) {
    // Resolved again at every level: a component may be a symlink, and its target must stay inside.
    const wanted = workspacePath(root, parent === "" ? part : `${parent}/${part}`);
    const made = await inPinnedDir(root, parentOf(wanted), basename(wanted), (p) =>
      makeDirectory(p, wanted, rel),
    );
    if (made) created.push(wanted);
    parent = wanted;
  }
  return created;
}

/** Delete the regular file `rel` (used by undo of create_file); never follows a final symlink. */
export async function removeFile(root: string, rel: string): Promise<void> {
  const real = workspacePath(root, rel);
  await inPinnedDir(root, parentOf(real), basename(real), async (p) => {
    const stat = await lstat(p).catch(() => undefined);
    if (stat === undefined) return;
    if (!stat.isFile())
      throw new PathError("is_directory", `${real} is no longer a regular file; refusing to delete it`);
    await unlink(p);
  });
}
