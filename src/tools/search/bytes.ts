import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { FILE_HAS_NUL, FILE_UNREADABLE, FILE_UNSTORED, FILE_UTF16_BOM } from "./watch-protocol.js";

/** How far `countLines` looks for a line's end byte by byte before asking `indexOf`. */
const NEAR_NEWLINE_BYTES = 256;

/** Flags for bytes as rg will see them: a NUL makes rg treat the file as binary, a BOM makes it decode. */
export function contentFlags(bytes: Buffer): number {
  const bom =
    bytes.length >= 2 &&
    ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff));
  return (bytes.indexOf(0) === -1 ? 0 : FILE_HAS_NUL) | (bom ? FILE_UTF16_BOM : 0);
}

/** A file's bytes, or its flags when it is too large to keep or cannot be read (never via a symlink). */
export function readFile(abs: string, maxBytes: number): { flags: number; bytes?: Buffer } {
  let fd: number;
  try {
    fd = openSync(abs, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch {
    return { flags: FILE_UNREADABLE };
  }
  try {
    const size = fstatSync(fd).size;
    if (size > maxBytes) return { flags: FILE_UNSTORED };
    const buf = Buffer.allocUnsafe(size);
    const bytes = buf.subarray(0, readSync(fd, buf, 0, size, 0));
    return { flags: contentFlags(bytes), bytes };
  } catch {
    return { flags: FILE_UNREADABLE };
  } finally {
    closeSync(fd);
  }
}

/**
 * Count the lines of `buf[from, end)` that contain `literal` (which holds no newline), the way rg
 * counts matching lines; 0 when none does. `first` is the first occurrence at or after `from`.
 */
export function countLines(buf: Buffer, literal: Buffer, first: number, end: number): number {
  let lines = 0;
  let at = first;
  while (at !== -1 && at + literal.length <= end) {
    lines += 1;
    // Source lines are short: stepping to the newline in JS beats a native call; long lines fall back.
    let newline = at + literal.length;
    const near = Math.min(end, newline + NEAR_NEWLINE_BYTES);
    while (newline < near && buf[newline] !== 10) newline++;
    if (newline === near) newline = near === end ? -1 : buf.indexOf(10, near);
    if (newline === -1 || newline >= end - 1) break;
    at = buf.indexOf(literal, newline + 1);
  }
  return lines;
}

/** Index of the last element of ascending `sorted` that is <= `value` (0 if none). */
export function lastAtOrBefore(sorted: Int32Array, value: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((sorted[mid] as number) <= value) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
