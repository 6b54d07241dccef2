/**
 * An attempt's folder in a job result and back: every regular file, gzipped, with a cap on the total,
 * and unpacked only inside the attempt's own folder (a result is data from Redis, not a path to trust).
 */
import { lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, normalize, relative, sep } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import type { PackedFile } from "./protocol.js";

/** What one attempt's files may weigh in a result, before compression. */
export const MAX_RESULT_BYTES = 64 * 1024 * 1024;

export function packDir(dir: string, cap = MAX_RESULT_BYTES): PackedFile[] {
  const files: PackedFile[] = [];
  let total = 0;
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) {
        const bytes = readFileSync(p);
        total += bytes.length;
        if (total > cap)
          throw new Error(
            `the attempt's files pass ${(cap / 2 ** 20).toFixed(0)} MB, more than a job result may carry`,
          );
        files.push({ path: relative(dir, p).split(sep).join("/"), gz: gzipSync(bytes).toString("base64") });
      }
    }
  };
  walk(dir);
  return files;
}

/** A packed path that stays inside the folder, or a refusal naming it. */
function safeRelative(path: string): string {
  const n = normalize(path);
  if (path === "" || path.includes("\0") || n.startsWith("/") || n === ".." || n.startsWith(`..${sep}`))
    throw new Error(`a job result names the file "${path}", which is outside its attempt's folder — refused`);
  return n;
}

export function unpackDir(dir: string, files: readonly PackedFile[]): void {
  mkdirSync(dir, { recursive: true }); // the attempt's own folder: the run removed it before the attempt
  for (const f of files) {
    const rel = safeRelative(f.path);
    // Down from the folder one part at a time, refusing a symlink before anything is made through it.
    let at = dir;
    for (const part of rel.split(sep)) {
      at = join(at, part);
      const st = lstatSync(at, { throwIfNoEntry: false });
      if (st?.isSymbolicLink()) throw new Error(`refusing to write through the symlink ${at}`);
      if (at !== join(dir, rel) && !st) mkdirSync(at);
    }
    writeFileSync(at, gunzipSync(Buffer.from(f.gz, "base64")), { flag: "w" });
  }
}
