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
import { adoptTree, assertReachable, SANDBOX_UID, sandboxIdentity } from "./owner.js";

const asRoot = process.getuid?.() === 0;
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("sandboxIdentity", () => {
  it.skipIf(!asRoot)("as root, switches to the dedicated unprivileged uid and refuses uid 0", () => {
    expect(sandboxIdentity()).toEqual({ uid: SANDBOX_UID, gid: SANDBOX_UID, switched: true });
    expect(() => sandboxIdentity({ uid: 0 })).toThrow(/unprivileged/);
  });
});

describe.skipIf(!asRoot)("adoptTree", () => {
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
