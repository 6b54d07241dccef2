import { openSync, readdirSync, readFileSync } from "node:fs";

/** O_CLOEXEC in the octal `flags:` line of /proc/self/fdinfo/N. */
const O_CLOEXEC = 0o2000000;

/**
 * Descriptors this process holds without close-on-exec, at or above `from`. Node opens its own with
 * O_CLOEXEC, but whatever the parent of acilab left open (a CI runner's pipe, a socket) is inherited
 * by every child, and libuv does not close it: without this, it would reach inside the sandbox.
 */
export function inheritableDescriptors(from: number): number[] {
  let names: string[];
  try {
    names = readdirSync("/proc/self/fd");
  } catch {
    return [];
  }
  const out: number[] = [];
  for (const name of names) {
    const fd = Number(name);
    if (!Number.isInteger(fd) || fd < from) continue;
    try {
      const flags = /^flags:\s+([0-7]+)$/m.exec(readFileSync(`/proc/self/fdinfo/${fd}`, "utf8"))?.[1];
      if (flags !== undefined && (Number.parseInt(flags, 8) & O_CLOEXEC) === 0) out.push(fd);
    } catch {
      // closed meanwhile (the directory handle readdir used, for one)
    }
  }
  return out.sort((a, b) => a - b);
}

let devNull: number | undefined;
/** A /dev/null descriptor (close-on-exec itself) to put over inherited ones in a child. */
export function devNullFd(): number {
  devNull ??= openSync("/dev/null", "r");
  return devNull;
}
