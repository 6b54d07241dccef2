/** Fixtures for the copy-on-write tests: small real repositories, tree fingerprints, mount probes. */

import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmodSync,
  closeSync,
  constants,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { mountsUnder } from "./mountinfo.js";
import { prepareSnapshot } from "./snapshot.js";

export const FIXTURE_FILES: Record<string, string> = {
  "README.md": "# demo\n",
  "src/app.py": "from util import double\n\nprint(double(2))\n",
  "src/util.py": "def double(x):\n    return 2 * x\n",
  "src/pkg/a.py": "A = 1\n",
  "src/pkg/b.py": "B = 2\n",
  "docs/guide.md": "Read the code.\n",
  "lib/core.py": "CORE = True\n",
  "lib/extra/more.py": "MORE = True\n",
  "scripts/run.sh": "#!/bin/sh\npython3 src/app.py\n",
};

/** A directory holding FIXTURE_FILES (plus an executable bit and a symlink), not yet a git repo. */
export function makeSourceTree(parent: string): string {
  const dir = mkdtempSync(join(parent, "source-"));
  for (const [path, text] of Object.entries(FIXTURE_FILES)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  chmodSync(join(dir, "scripts/run.sh"), 0o755);
  symlinkSync("src/app.py", join(dir, "link"));
  return dir;
}

/** A real-path scratch directory for one test file. */
export function makeScratch(name: string): string {
  return realpathSync(mkdtempSync(join(tmpdir(), `acilab-cowtest-${name}-`)));
}

/** Path, type, mode and content of everything under `dir` (`.git` included), as one hash. */
export function treeFingerprint(dir: string): string {
  const hash = createHash("sha256");
  const walk = (rel: string) => {
    for (const name of readdirSync(join(dir, rel)).sort()) {
      const path = rel === "" ? name : `${rel}/${name}`;
      const full = join(dir, path);
      const stat = lstatSync(full);
      hash.update(`${path}\0${stat.mode}\0`);
      if (stat.isDirectory()) walk(path);
      else if (stat.isSymbolicLink()) hash.update(readlinkSync(full));
      else hash.update(readFileSync(full));
    }
  };
  walk("");
  return hash.digest("hex");
}

/** Whether this machine can mount overlays (root, kernel support): decides which tests run. */
export async function overlayWorksHere(): Promise<boolean> {
  const scratch = makeScratch("probe");
  try {
    const snapshot = await prepareSnapshot(makeSourceTree(scratch), { scratchDir: scratch });
    const checkout = await snapshot.checkout();
    const works = checkout.kind === "overlay";
    await snapshot.dispose();
    return works;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Mount points at or below `dir` (deepest first): what a test must leave empty. */
export function mountedUnder(dir: string): string[] {
  return mountsUnder(dir).map((m) => m.target);
}

/**
 * `levels` nested directories named `part` (60 d's) below `dir`/`name`, with a file at the bottom:
 * made through descriptors (/proc/self/fd), since the path soon exceeds PATH_MAX (4096 bytes after
 * 68 levels). Returns the path's length in bytes.
 */
export function makeDeepTree(dir: string, name: string, levels: number, part = "d".repeat(60)): number {
  mkdirSync(join(dir, name));
  let fd = openSync(join(dir, name), constants.O_RDONLY | constants.O_DIRECTORY);
  try {
    for (let i = 0; i < levels; i++) {
      mkdirSync(`/proc/self/fd/${fd}/${part}`);
      const next = openSync(`/proc/self/fd/${fd}/${part}`, constants.O_RDONLY | constants.O_DIRECTORY);
      closeSync(fd);
      fd = next;
    }
    writeFileSync(`/proc/self/fd/${fd}/leaf.txt`, "bottom\n");
  } finally {
    closeSync(fd);
  }
  return Buffer.byteLength(join(dir, name)) + levels * (part.length + 1);
}

/**
 * Run `source` (a TypeScript module; `HERE` in it is this folder's path) in a fresh node with `args`,
 * optionally under `prefix` (e.g. an unshare command line); returns its exit, signal and stdout lines.
 */
export function runChildScript(
  scratch: string,
  source: string,
  args: string[],
  prefix: string[] = [],
): { status: number | null; signal: string | null; lines: string[]; stderr: string } {
  const here = dirname(fileURLToPath(import.meta.url));
  const tsxDir = dirname(createRequire(import.meta.url).resolve("tsx/package.json"));
  const script = join(mkdtempSync(join(scratch, "child-")), "child.mts");
  writeFileSync(script, source.replaceAll("HERE", JSON.stringify(here).slice(1, -1)));
  const node = [process.execPath, "--import", join(tsxDir, "dist", "loader.mjs"), script, ...args];
  const [command = "", ...rest] = [...prefix, ...node];
  const result = spawnSync(command, rest, { encoding: "utf8" });
  return {
    status: result.status,
    signal: result.signal,
    lines: (result.stdout ?? "").split("\n").filter((l) => l !== ""),
    stderr: result.stderr ?? "",
  };
}
