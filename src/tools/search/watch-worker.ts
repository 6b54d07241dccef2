import type { FSWatcher } from "node:fs";
import type { WatchChanges, WatchRequest, WatchResponse, WatchWorkerData } from "./watch-protocol.js";

/**
 * The watcher thread. It owns one inotify instance (libuv opens one per event loop, and a worker has
 * its own loop), watches every directory of each indexed workspace without following symlinks, and
 * records what changed until the main thread asks. It also reads files for the content index, in
 * small chunks so events and sync requests are never held up for long.
 *
 * Why a thread: libuv drops inotify's IN_Q_OVERFLOW notice (its watch descriptor is -1, which no
 * handle owns), so a lost event cannot be seen directly. It can be bounded, though: the kernel only
 * overflows when max_queued_events unread events pile up, and every one of those is later delivered
 * in one burst. A thread that shares its queue with no other code can count those bursts; one at
 * least a quarter of the queue size means an overflow may have happened, and every workspace is
 * dropped. (A quarter, not all of it: events for a watch we just closed are dropped uncounted.)
 *
 * This function is shipped to the thread as its source text (see watch-client.ts), so it must not
 * use anything from the enclosing module: only `require`d built-ins, its `workerData`, and
 * `packFiles`, passed in the same way.
 */
export function watchWorkerMain(packFiles: typeof import("./pack-files.js").packFiles): void {
  const { parentPort, workerData } = require("node:worker_threads") as typeof import("node:worker_threads");
  const fs = require("node:fs") as typeof import("node:fs");
  const nodePath = require("node:path") as typeof import("node:path");
  const settings = workerData as WatchWorkerData;
  const IGNORE_FILES = new Set([".gitignore", ".ignore", ".rgignore"]);

  interface Root {
    root: string;
    dirs: Map<string, FSWatcher>;
    /** Watches outside the tree: ancestors of the root and git directories, keyed by absolute path. */
    extra: Map<string, FSWatcher>;
    structural: Set<string>;
    ignore: Set<string>;
    content: Set<string>;
    failed: string | undefined;
  }
  const roots = new Map<string, Root>();

  let burst = 0;
  let burstCheck = false;
  /** Judge the events counted since the last check: a burst this large may hide an overflow. */
  const settleBurst = (): void => {
    if (burst >= settings.overflowSuspectEvents) {
      for (const r of roots.values()) fail(r, "the inotify event queue may have overflowed");
    }
    burst = 0;
    burstCheck = false;
  };
  const countEvent = (): void => {
    burst += 1;
    if (burstCheck) return;
    burstCheck = true;
    // Immediates run after the poll phase, so everything one read of the inotify queue delivered
    // has been counted by then.
    setImmediate(settleBurst);
  };

  const abs = (r: Root, rel: string): string => (rel === "" ? r.root : `${r.root}/${rel}`);
  const join = (dir: string, name: string): string => (dir === "" ? name : `${dir}/${name}`);

  function fail(r: Root, reason: string): void {
    if (r.failed !== undefined) return;
    r.failed = reason;
    for (const w of r.dirs.values()) w.close();
    for (const w of r.extra.values()) w.close();
    r.dirs.clear();
    r.extra.clear();
  }

  function watchPath(r: Root, path: string, onEvent: (type: string, name: string | null) => void) {
    const watcher = fs.watch(path, { persistent: false }, (type, name) => {
      countEvent();
      if (r.failed === undefined) onEvent(type, name === null ? null : String(name));
    });
    watcher.on("error", (err) => fail(r, `watching ${path} failed: ${err.message}`));
    return watcher;
  }

  /** Watch `rel` and every directory below it, each before it is listed, so no entry is missed. */
  function addTree(r: Root, rel: string): void {
    const stack = [rel];
    while (stack.length > 0 && r.failed === undefined) {
      const dir = stack.pop() as string;
      if (r.dirs.size >= settings.maxDirs) {
        fail(r, `more than ${settings.maxDirs} directories`);
        return;
      }
      let entries: import("node:fs").Dirent[];
      try {
        r.dirs.set(
          dir,
          watchPath(r, abs(r, dir), (type, name) => onTreeEvent(r, dir, type, name)),
        );
        entries = fs.readdirSync(abs(r, dir), { withFileTypes: true });
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        // Gone again already: its parent's event says so. Anything else (EACCES, ENOSPC) we cannot vouch for.
        if (code === "ENOENT" || code === "ENOTDIR") continue;
        fail(r, `cannot watch ${abs(r, dir)}: ${code ?? String(err)}`);
        return;
      }
      for (const entry of entries) {
        if (entry.name === ".git") watchGit(r, abs(r, dir), dir);
        else if (entry.isDirectory()) stack.push(join(dir, entry.name));
      }
    }
  }

  function closeTree(r: Root, rel: string): void {
    for (const [dir, watcher] of r.dirs) {
      if (dir === rel || dir.startsWith(`${rel}/`)) {
        watcher.close();
        r.dirs.delete(dir);
      }
    }
  }

  /**
   * rg reads `info/exclude` from the git directory (or a worktree's common directory) of `ownerAbs`;
   * a change marks `ignoreDir` ("" for a directory above the workspace) as having new rules.
   */
  function watchGit(r: Root, ownerAbs: string, ignoreDir: string): void {
    const key = `git\0${ownerAbs}\0`;
    for (const [k, w] of r.extra) {
      if (k.startsWith(key)) {
        w.close();
        r.extra.delete(k);
      }
    }
    let gitDir = nodePath.join(ownerAbs, ".git");
    try {
      if (fs.lstatSync(gitDir).isFile()) {
        const pointer = /^gitdir: (.+)$/m.exec(fs.readFileSync(gitDir, "utf8"));
        if (pointer?.[1] === undefined) return;
        gitDir = nodePath.resolve(ownerAbs, pointer[1].trim());
        const common = nodePath.join(gitDir, "commondir");
        if (fs.existsSync(common)) gitDir = nodePath.resolve(gitDir, fs.readFileSync(common, "utf8").trim());
      }
    } catch {
      return; // No .git after all: the event that removed it marked the rules as changed.
    }
    const changed = () => r.ignore.add(ignoreDir);
    for (const [path, names] of [
      [gitDir, ["info"]],
      [nodePath.join(gitDir, "info"), ["exclude"]],
    ] as const) {
      try {
        r.extra.set(
          key + path,
          watchPath(r, path, (_type, name) => {
            if (name === null || names.includes(name as never)) changed();
            if (name === "info") watchGit(r, ownerAbs, ignoreDir);
          }),
        );
      } catch {
        // info/ may not exist yet; its creation in the git directory re-runs this.
      }
    }
  }

  function onTreeEvent(r: Root, dir: string, type: string, name: string | null): void {
    // libuv names every inotify event on Linux; without a name we cannot say what changed.
    if (name === null) {
      fail(r, `an unnamed change in ${abs(r, dir)}`);
      return;
    }
    const child = join(dir, name);
    if (IGNORE_FILES.has(name)) r.ignore.add(dir);
    if (name === ".git") {
      r.ignore.add(dir);
      watchGit(r, abs(r, dir), dir);
      return;
    }
    if (type === "change" && !r.dirs.has(child)) {
      r.content.add(child);
      return;
    }
    r.structural.add(`${dir}\0${name}`);
    // A directory's metadata changed (chmod): rg may read it differently, but it is the same directory.
    if (type === "change") return;
    // Created, deleted or moved: whatever was watched under this name is not what is there now
    // (an inode number is no proof: ext4 hands a freed one straight to the next new directory).
    if (r.dirs.has(child)) closeTree(r, child);
    let isDir = false;
    try {
      isDir = fs.lstatSync(abs(r, child)).isDirectory();
    } catch {}
    if (isDir) addTree(r, child);
  }

  function watchRoot(root: string): Root {
    const r: Root = {
      root,
      dirs: new Map(),
      extra: new Map(),
      structural: new Set(),
      ignore: new Set(),
      content: new Set(),
      failed: undefined,
    };
    roots.set(root, r);
    // rg also reads ignore files in every directory above the root.
    let below = root;
    for (let dir = nodePath.dirname(root); ; dir = nodePath.dirname(dir)) {
      const toward = nodePath.basename(below);
      r.extra.set(
        `\0ancestor\0${dir}`,
        watchPath(r, dir, (type, name) => {
          if (name === null || IGNORE_FILES.has(name) || name === ".git") r.ignore.add("");
          if (name === ".git") watchGit(r, dir, "");
          // The workspace (or a directory above it) was created, deleted or moved: nothing we
          // watch can be trusted. A metadata change ("change") only may alter what rg can read.
          if (name === null || (name === toward && type === "rename"))
            fail(r, `${root} was moved or deleted`);
          else if (name === toward) r.ignore.add("");
        }),
      );
      if (fs.existsSync(nodePath.join(dir, ".git"))) watchGit(r, dir, "");
      if (dir === nodePath.dirname(dir)) break;
      below = dir;
    }
    addTree(r, "");
    return r;
  }

  function takeChanges(r: Root): WatchChanges {
    const changes: WatchChanges = {
      structural: [...r.structural],
      ignore: [...r.ignore],
      content: [...r.content],
    };
    if (r.failed !== undefined) changes.failed = r.failed;
    r.structural.clear();
    r.ignore.clear();
    r.content.clear();
    return changes;
  }

  function readFiles(r: Root, req: Extract<WatchRequest, { op: "read" }>, reply: (m: WatchResponse) => void) {
    packFiles(
      req,
      (path) => abs(r, path),
      settings.readChunkFiles,
      () => r.failed,
      (result) => {
        if ("error" in result) return reply({ id: req.id, ok: false, reason: result.error });
        const { read } = result;
        const transfer = [
          ...read.segments,
          read.seg.buffer,
          read.start.buffer,
          read.length.buffer,
          read.flags.buffer,
        ];
        parentPort?.postMessage(
          { id: req.id, ok: true, read } satisfies WatchResponse,
          transfer as ArrayBuffer[],
        );
      },
    );
  }

  parentPort?.on("message", (req: WatchRequest) => {
    const reply = (m: WatchResponse): void => parentPort?.postMessage(m);
    try {
      if (req.op === "stall") {
        reply({ id: req.id, ok: true });
        const until = Date.now() + req.ms;
        while (Date.now() < until) {}
        return;
      }
      if (req.op === "watch") {
        const existing = roots.get(req.root);
        if (existing !== undefined) fail(existing, "watched again");
        const r = watchRoot(req.root);
        return reply(
          r.failed === undefined ? { id: req.id, ok: true } : { id: req.id, ok: false, reason: r.failed },
        );
      }
      const r = roots.get(req.root);
      if (r === undefined) return reply({ id: req.id, ok: false, reason: "not watched" });
      if (req.op === "unwatch") {
        fail(r, "released");
        roots.delete(req.root);
        return reply({ id: req.id, ok: true });
      }
      if (req.op === "read") return readFiles(r, req, reply);
      // Two turns of the loop: the second poll phase starts after this request arrived, so every
      // event the kernel queued before the caller asked has been delivered and recorded.
      // The burst is judged before answering: its own check may be queued behind this one.
      setImmediate(() =>
        setImmediate(() => {
          settleBurst();
          reply({ id: req.id, ok: true, ...takeChanges(r) });
        }),
      );
    } catch (err) {
      reply({ id: req.id, ok: false, reason: (err as Error).message });
    }
  });
}
