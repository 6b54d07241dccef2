import { execFileSync } from "node:child_process";
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { needing, notRoot } from "../../testing/needs.js";
import { adoptTree, assertReachable, MAX_ADOPT_DEPTH, SANDBOX_UID, sandboxIdentity } from "./owner.js";

const _asRoot = process.getuid?.() === 0;
const dirs: string[] = [];
/** Trees too deep for rmSync's paths: GNU rm walks them relative to open directories. */
const deep: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  for (const d of deep.splice(0)) execFileSync("rm", ["-rf", "--", d]);
});

/** `levels` directories named `name` nested in `root` (built with relative paths), then `leaf` in the last. */
function nest(root: string, levels: number, name: string, leaf: string): void {
  const code = `import os, sys\nos.chdir(sys.argv[1])\nfor _ in range(${levels}):\n    os.mkdir(${JSON.stringify(name)}); os.chdir(${JSON.stringify(name)})\n${leaf}`;
  execFileSync("python3", ["-c", code, root]);
}

describe("sandboxIdentity", () => {
  needing("root", notRoot).it("as root, switches to the dedicated unprivileged uid and refuses uid 0", () => {
    expect(sandboxIdentity()).toEqual({ uid: SANDBOX_UID, gid: SANDBOX_UID, switched: true });
    expect(() => sandboxIdentity({ uid: 0 })).toThrow(/unprivileged/);
  });
});

needing("root", notRoot).describe("adoptTree", () => {
  it("hands the tree to the sandbox user without following symlinks out of it", () => {
    const outside = mkdtempSync(join(tmpdir(), "acilab-outside-"));
    const ws = mkdtempSync(join(tmpdir(), "acilab-adopt-"));
    dirs.push(outside, ws);
    writeFileSync(join(outside, "host-file"), "x");
    mkdirSync(join(ws, "src/pkg"), { recursive: true });
    writeFileSync(join(ws, "src/pkg/a.py"), "");
    symlinkSync(join(outside, "host-file"), join(ws, "link"));
    symlinkSync(outside, join(ws, "dirlink"));
    expect(adoptTree(ws, SANDBOX_UID, SANDBOX_UID)).toBe(6);
    expect(statSync(join(ws, "src/pkg/a.py")).uid).toBe(SANDBOX_UID);
    expect(lstatSync(join(ws, "link")).uid).toBe(SANDBOX_UID);
    expect(statSync(join(outside, "host-file")).uid).toBe(0);
    expect(statSync(outside).uid).toBe(0);
    expect(adoptTree(ws, SANDBOX_UID, SANDBOX_UID)).toBe(0); // second pass: nothing to change
  });

  it("walks a tree deeper than PATH_MAX, FIFOs included, without a path that long", () => {
    const ws = mkdtempSync(join(tmpdir(), "acilab-deep-"));
    deep.push(ws);
    // 300 levels of 20-character names: 6,300 characters of path, past PATH_MAX (4,096).
    nest(ws, 300, "d".repeat(20), "os.mkfifo('fifo'); open('file', 'w').close()");
    // Entries below the root: 300 directories, the FIFO and the file, plus the root itself.
    expect(adoptTree(ws, SANDBOX_UID, SANDBOX_UID)).toBe(303);
    expect(adoptTree(ws, SANDBOX_UID, SANDBOX_UID)).toBe(0);
  });

  it("skips what lies deeper than MAX_ADOPT_DEPTH, and says so", () => {
    const ws = mkdtempSync(join(tmpdir(), "acilab-deeper-"));
    deep.push(ws);
    nest(ws, MAX_ADOPT_DEPTH + 5, "d", "open('file', 'w').close()");
    const notes: string[] = [];
    // Levels 1…MAX_ADOPT_DEPTH and the root; the five directories below and the file are skipped.
    expect(adoptTree(ws, SANDBOX_UID, SANDBOX_UID, (n) => notes.push(n))).toBe(MAX_ADOPT_DEPTH + 1);
    expect(notes).toEqual([
      expect.stringMatching(new RegExp(`^1 directory nested deeper than ${MAX_ADOPT_DEPTH} levels in ${ws}`)),
    ]);
  });

  it("names the directory that keeps the sandbox user out, and the fix", () => {
    const parent = mkdtempSync(join(tmpdir(), "acilab-private-")); // 0700, root's
    dirs.push(parent);
    mkdirSync(join(parent, "ws"));
    const id = { uid: SANDBOX_UID, gid: SANDBOX_UID, switched: true };
    expect(() => assertReachable(join(parent, "ws"), id, "workspace")).toThrow(
      new RegExp(`${parent} is not searchable by it .* chmod o\\+x ${parent}`),
    );
    chmodSync(parent, 0o711);
    expect(() => assertReachable(join(parent, "ws"), id, "workspace")).not.toThrow();
  });
});
