import { readFileSync } from "node:fs";
import { isWithin } from "../paths.js";

export interface MountEntry {
  id: number;
  parent: number;
  /** Where it is mounted, with the kernel's octal escapes (`\040` for a space) decoded. */
  target: string;
  fsType: string;
  /** Per-mount options (`ro`, `nosuid`, …). */
  mountOptions: string[];
  /** Filesystem options (`lowerdir=…` for an overlay, `size=…` for a tmpfs). */
  superOptions: string[];
}

function decodeOctal(field: string): string {
  return field.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(Number.parseInt(octal, 8)));
}

/**
 * Parse /proc/<pid>/mountinfo (proc(5)): `id parent maj:min root target options [tags…] - type source
 * superoptions`. The optional tags end at the lone `-`.
 */
export function parseMountInfo(text: string): MountEntry[] {
  const entries: MountEntry[] = [];
  for (const line of text.split("\n")) {
    if (line === "") continue;
    const fields = line.split(" ");
    const dash = fields.indexOf("-", 6);
    if (dash < 0 || fields.length < dash + 4) continue;
    entries.push({
      id: Number(fields[0]),
      parent: Number(fields[1]),
      target: decodeOctal(fields[4] ?? ""),
      mountOptions: (fields[5] ?? "").split(","),
      fsType: fields[dash + 1] ?? "",
      superOptions: (fields[dash + 3] ?? "").split(","),
    });
  }
  return entries;
}

export function readMountInfo(): MountEntry[] {
  try {
    return parseMountInfo(readFileSync("/proc/self/mountinfo", "utf8"));
  } catch {
    return []; // not Linux: nothing of ours can be mounted either
  }
}

/** Mounts at or below `dir`, deepest first: the order they must be unmounted in. */
export function mountsUnder(dir: string, entries: MountEntry[] = readMountInfo()): MountEntry[] {
  return entries
    .filter((m) => isWithin(dir, m.target))
    .sort((a, b) => b.target.length - a.target.length || b.id - a.id);
}
