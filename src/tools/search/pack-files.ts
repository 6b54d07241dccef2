import type { ReadResult, WatchRequest } from "./watch-protocol.js";

/**
 * Read files into large shared buffers for the content index, in the watcher thread. Runs
 * `chunkFiles` files per turn of the event loop, so inotify events and sync requests are answered
 * in between. Shipped to the thread as source text with watch-worker.ts: self-contained, built-ins
 * only. Files are opened without following symlinks (rg never follows them either).
 */
export function packFiles(
  req: Pick<
    Extract<WatchRequest, { op: "read" }>,
    "paths" | "segmentBytes" | "maxFileBytes" | "maxTotalBytes"
  >,
  absolute: (path: string) => string,
  chunkFiles: number,
  stopped: () => string | undefined,
  done: (result: { read: ReadResult } | { error: string }) => void,
): void {
  const fs = require("node:fs") as typeof import("node:fs");
  // The FILE_* flags of watch-protocol.ts (constants cannot be imported here).
  const HAS_NUL = 1;
  const UTF16_BOM = 2;
  const UNSTORED = 4;
  const UNREADABLE = 8;
  const n = req.paths.length;
  const out = {
    seg: new Int32Array(n),
    start: new Int32Array(n),
    length: new Int32Array(n),
    flags: new Uint8Array(n),
  };
  const segments: ArrayBuffer[] = [];
  let current = Buffer.alloc(0);
  let used = 0;
  let total = 0;
  let next = 0;
  const finishSegment = () => {
    if (used > 0) segments.push(current.buffer.slice(current.byteOffset, current.byteOffset + used));
  };
  /** Read file `i` into the current segment; false when the byte budget is spent. */
  const readOne = (i: number): boolean => {
    let fd: number;
    try {
      fd = fs.openSync(absolute(req.paths[i] as string), fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
    } catch {
      out.flags[i] = UNREADABLE;
      return true;
    }
    try {
      const size = fs.fstatSync(fd).size;
      if (size > req.maxFileBytes) {
        out.flags[i] = UNSTORED;
        return true;
      }
      total += size;
      if (total > req.maxTotalBytes) return false;
      if (used + size > current.length) {
        finishSegment();
        current = Buffer.alloc(Math.max(req.segmentBytes, size));
        used = 0;
      }
      const got = fs.readSync(fd, current, used, size, 0);
      const bytes = current.subarray(used, used + got);
      const bom =
        got >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff));
      out.seg[i] = segments.length;
      out.start[i] = used;
      out.length[i] = got;
      out.flags[i] = (bytes.indexOf(0) === -1 ? 0 : HAS_NUL) | (bom ? UTF16_BOM : 0);
      used += got;
    } catch {
      out.flags[i] = UNREADABLE;
    } finally {
      fs.closeSync(fd);
    }
    return true;
  };
  const step = (): void => {
    const reason = stopped();
    if (reason !== undefined) {
      done({ error: reason });
      return;
    }
    for (const end = Math.min(n, next + chunkFiles); next < end; next++) {
      if (!readOne(next)) {
        done({ error: `more than ${req.maxTotalBytes} bytes of text` });
        return;
      }
    }
    if (next < n) {
      setImmediate(step);
      return;
    }
    finishSegment();
    done({ read: { segments, ...out } });
  };
  step();
}
