/**
 * Checkpoints: before each call that may change files, the state of every file the session has
 * changed so far. On the overlay that is only what the upper layer holds (the rest is the base), so a
 * checkpoint costs a walk of the changes and a read of each changed file, not of the repository.
 * Contents go to a content-addressed blob folder, so a file unchanged between checkpoints is stored
 * once; the list is a JSON file beside it, so a resumed session can still rewind.
 */
import { createHash } from "node:crypto";
import {
  constants,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from "node:fs";
import { chmod, chown, lstat, mkdir, unlink } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { Checkout } from "../workspace/index.js";
import { openInside, resolveInside } from "../workspace/index.js";

/** A changed file at a checkpoint: its content's blob and mode, or null when it was deleted. */
type FileState = { blob: string; mode: number } | null;

export interface Checkpoint {
  /** 1-based, in the order taken. */
  n: number;
  /** What was about to run: `str_replace src/a.py`, `shell: make fmt`. */
  label: string;
  /**
   * Index of the user message that started the turn: rewinding the conversation keeps what came
   * before. -1 once a summary replaced that part of the conversation.
   */
  promptIndex: number;
  created: string;
  files: Record<string, FileState>;
}

export class CheckpointError extends Error {
  override name = "CheckpointError";
}

export class Checkpoints {
  private list: Checkpoint[];

  constructor(
    private readonly ws: { root: string; baseDir: string; checkout: Checkout },
    /** The session's checkpoint folder (list.json and blobs/). */
    private readonly dir: string,
  ) {
    const file = join(dir, "list.json");
    this.list = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Checkpoint[]) : [];
  }

  get all(): readonly Checkpoint[] {
    return this.list;
  }

  /** The conversation was summarised: no checkpoint can take it back any more (promptIndex -1). */
  forgetConversation(): void {
    this.list = this.list.map((c) => ({ ...c, promptIndex: -1 }));
    this.save();
  }

  /** Record the changed files as they are now, before `label` runs. */
  async take(label: string, promptIndex: number): Promise<Checkpoint> {
    const diff = await this.ws.checkout.diff();
    const files: Record<string, FileState> = {};
    for (const path of [...diff.added, ...diff.modified]) {
      const state = await this.storeFile(path);
      if (state !== undefined) files[path] = state;
    }
    for (const path of diff.deleted) files[path] = null;
    const checkpoint: Checkpoint = {
      n: (this.list.at(-1)?.n ?? 0) + 1,
      label,
      promptIndex,
      created: new Date().toISOString(),
      files,
    };
    this.list.push(checkpoint);
    this.save();
    return checkpoint;
  }

  /**
   * Put every file back as it was at checkpoint `n` (before the call it was taken for), and drop the
   * checkpoints from `n` on. Returns the paths written or removed.
   */
  async restore(n: number): Promise<string[]> {
    const target = this.list.find((c) => c.n === n);
    if (!target) throw new CheckpointError(this.outOfRange(n));
    const diff = await this.ws.checkout.diff();
    const paths = new Set([...diff.added, ...diff.modified, ...diff.deleted, ...Object.keys(target.files)]);
    const touched: string[] = [];
    for (const path of [...paths].sort()) {
      const want = path in target.files ? target.files[path] : this.baseState(path);
      if (await this.put(path, want ?? null)) touched.push(path);
    }
    this.list = this.list.filter((c) => c.n < n);
    this.save();
    return touched;
  }

  private outOfRange(n: number): string {
    if (this.list.length === 0) return `there are no checkpoints to rewind to: nothing has been edited yet`;
    const first = this.list[0]?.n ?? 1;
    const last = this.list.at(-1)?.n ?? first;
    return `there is no checkpoint ${n}: this session has checkpoints ${first}–${last} (${first} is before the first edit); list them with /rewind`;
  }

  /** A base file as a state to restore: its content from the snapshot, or null when the base has none. */
  private baseState(path: string): FileState | undefined {
    const abs = join(this.ws.baseDir, path);
    const st = lstatSync(abs, { throwIfNoEntry: false });
    if (!st?.isFile()) return null;
    return { blob: this.blobOf(readFileSync(abs)), mode: st.mode & 0o7777 };
  }

  private async storeFile(path: string): Promise<FileState | undefined> {
    let handle: Awaited<ReturnType<typeof openInside>>;
    try {
      handle = await openInside(this.ws.root, path, constants.O_RDONLY);
    } catch {
      return undefined; // a symlink or special file: a patch carries it, a checkpoint does not
    }
    try {
      const st = await handle.stat();
      if (!st.isFile()) return undefined;
      return { blob: this.blobOf(await handle.readFile()), mode: st.mode & 0o7777 };
    } finally {
      await handle.close();
    }
  }

  private blobOf(content: Buffer): string {
    const id = createHash("sha256").update(content).digest("hex");
    const file = join(this.dir, "blobs", id);
    if (!existsSync(file)) {
      // Written before the list names it: a blob the list refers to is always whole.
      mkdirSync(dirname(file), { recursive: true });
      writeFileAtomic(file, content);
    }
    return id;
  }

  /** Make `path` hold `state`; false when it already did. */
  private async put(path: string, state: FileState): Promise<boolean> {
    const resolved = resolveInside(this.ws.root, path);
    if (!resolved.ok) throw new CheckpointError(`cannot restore ${path}: ${resolved.error}`);
    const current = await lstat(resolved.abs).catch(() => undefined);
    if (state === null) {
      if (!current) return false;
      if (current.isDirectory()) throw new CheckpointError(`cannot restore ${path}: it is now a directory`);
      await unlink(resolved.abs);
      return true;
    }
    const content = readFileSync(join(this.dir, "blobs", state.blob));
    if (
      current?.isFile() &&
      (current.mode & 0o7777) === state.mode &&
      content.equals(readFileSync(resolved.abs))
    )
      return false;
    if (current && !current.isFile()) await unlink(resolved.abs);
    await this.makeParents(dirname(resolved.abs));
    const handle = await openInside(
      this.ws.root,
      path,
      constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC,
      state.mode,
    );
    try {
      await handle.writeFile(content);
    } finally {
      await handle.close();
    }
    await chmod(resolved.abs, state.mode);
    return true;
  }

  /** Missing parent folders, owned like the workspace root (the sandbox's user), so commands can use them. */
  private async makeParents(dir: string): Promise<void> {
    const first = await mkdir(dir, { recursive: true });
    if (first === undefined || process.getuid?.() !== 0) return;
    const owner = await lstat(this.ws.root);
    for (let d = dir; d.length >= first.length; d = dirname(d)) await chown(d, owner.uid, owner.gid);
  }

  /** Synchronous: two saves can never interleave their temporary file. */
  private save(): void {
    mkdirSync(this.dir, { recursive: true });
    const tmp = join(this.dir, "list.json.tmp");
    writeFileSync(tmp, `${JSON.stringify(this.list)}\n`);
    renameSync(tmp, join(this.dir, "list.json"));
  }
}

function writeFileAtomic(file: string, content: Buffer): void {
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, content);
  renameSync(tmp, file);
}
