import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readTextInside, writeTextInside } from "./files.js";
import { MAX_SYMLINK_EXPANSIONS, resolveInside } from "./paths.js";

let base: string;
let root: string;
let outside: string;

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "acilab-paths-")));
  root = join(base, "ws");
  outside = join(base, "outside");
  mkdirSync(join(root, "src"), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(root, "src", "a.py"), "x = 1\n");
  writeFileSync(join(outside, "secret.txt"), "TOKEN\n");
});

afterEach(() => rmSync(base, { recursive: true, force: true }));

describe("resolveInside", () => {
  it("accepts relative and absolute paths inside the root", () => {
    expect(resolveInside(root, "src/a.py")).toEqual({
      ok: true,
      abs: join(root, "src/a.py"),
      rel: "src/a.py",
    });
    expect(resolveInside(root, join(root, "src/a.py"))).toMatchObject({ ok: true, rel: "src/a.py" });
    expect(resolveInside(root, ".")).toMatchObject({ ok: true, rel: "" });
    expect(resolveInside(root, "src/new/file.py")).toMatchObject({ ok: true, rel: "src/new/file.py" });
  });

  it("refuses .. escapes and clamps .. at /", () => {
    expect(resolveInside(root, "../outside/secret.txt").ok).toBe(false);
    expect(resolveInside(root, "src/../../outside").ok).toBe(false);
    expect(resolveInside(root, "/../../../etc/passwd").ok).toBe(false);
    // Going up and back down into the root is fine: the real location decides.
    expect(resolveInside(root, "../ws/src/a.py")).toMatchObject({ ok: true, rel: "src/a.py" });
    expect(resolveInside(root, "/etc/passwd").ok).toBe(false);
  });

  it("follows symlinks component by component", () => {
    symlinkSync(outside, join(root, "link-out"));
    symlinkSync("src", join(root, "link-in"));
    symlinkSync("../../outside/secret.txt", join(root, "src", "rel-out"));
    expect(resolveInside(root, "link-out/secret.txt").ok).toBe(false);
    expect(resolveInside(root, "link-in/a.py")).toMatchObject({ ok: true, rel: "src/a.py" });
    expect(resolveInside(root, "src/rel-out").ok).toBe(false);
    // A dangling link to a file outside, about to be created, is still outside.
    symlinkSync(join(outside, "new.txt"), join(root, "dangling"));
    expect(resolveInside(root, "dangling").ok).toBe(false);
  });

  it("refuses symlink loops and long chains", () => {
    symlinkSync("loop-b", join(root, "loop-a"));
    symlinkSync("loop-a", join(root, "loop-b"));
    const loop = resolveInside(root, "loop-a/x");
    expect(loop).toMatchObject({ ok: false });
    expect(loop.ok ? "" : loop.error).toContain("too many symbolic links");
    let prev = "src";
    for (let i = 0; i <= MAX_SYMLINK_EXPANSIONS; i++) {
      symlinkSync(prev, join(root, `chain${i}`));
      prev = `chain${i}`;
    }
    expect(resolveInside(root, `chain${MAX_SYMLINK_EXPANSIONS - 1}/a.py`).ok).toBe(true);
    expect(resolveInside(root, `chain${MAX_SYMLINK_EXPANSIONS}/a.py`).ok).toBe(false);
  });

  it("speaks in workspace paths: an error never names where the workspace is on the host", () => {
    symlinkSync("../outside", join(root, "link-rel"));
    symlinkSync("/etc", join(root, "link-etc"));
    const error = (input: string) => {
      const r = resolveInside(root, input);
      return r.ok ? "" : r.error;
    };
    for (const input of [
      "../outside/secret.txt",
      "/etc/passwd",
      "../../../../etc",
      "link-rel/secret.txt",
      "link-etc",
    ])
      expect(error(input), input).not.toContain(base);
    expect(error("../outside/secret.txt")).toBe(
      "../outside/secret.txt is outside the workspace; use a path inside it, relative to its root (e.g. src/main.py)",
    );
    expect(error("link-rel/secret.txt")).toBe(
      "link-rel/secret.txt is outside the workspace (through the symbolic link link-rel → ../outside); use a path inside it, relative to its root (e.g. src/main.py)",
    );
    expect(error("src/../link-etc/passwd")).toContain("(through the symbolic link link-etc → /etc)");
  });

  it("refuses NUL bytes", () => {
    expect(resolveInside(root, "src/a.py\0.txt").ok).toBe(false);
  });
});

describe("safe file access", () => {
  it("reads and writes inside, refuses through an outward symlink", async () => {
    expect(await readTextInside(root, "src/a.py")).toBe("x = 1\n");
    await writeTextInside(root, "src/b.py", "y = 2\n", "new");
    expect(await readTextInside(root, "src/b.py")).toBe("y = 2\n");
    await expect(writeTextInside(root, "src/b.py", "z", "new")).rejects.toThrow(/already exists/);
    symlinkSync(outside, join(root, "out"));
    await expect(readTextInside(root, "out/secret.txt")).rejects.toThrow(/outside the workspace/);
    await expect(writeTextInside(root, "out/pwned.txt", "x", "any")).rejects.toThrow(/outside the workspace/);
  });

  it("is not fooled by a final-component symlink swapped in after the check", async () => {
    // Simulate the race: the check saw a regular file, then it became a link to a secret.
    const target = join(root, "src", "swap.txt");
    writeFileSync(target, "fine\n");
    rmSync(target);
    symlinkSync(join(outside, "secret.txt"), target);
    await expect(readTextInside(root, "src/swap.txt")).rejects.toThrow(/outside|symbolic link/);
  });

  it("never blocks on a FIFO in a file's place: it is refused as not a regular file", async () => {
    execFileSync("mkfifo", [join(root, "src", "pipe.py")]);
    await expect(readTextInside(root, "src/pipe.py")).rejects.toThrow(/src\/pipe\.py is not a regular file/);
    await expect(writeTextInside(root, "src/pipe.py", "x", "existing")).rejects.toThrow(/not a regular file/);
    await expect(writeTextInside(root, "src/pipe.py", "x", "any")).rejects.toMatchObject({
      kind: "invalid_arguments",
    });
  });

  it("reports a missing file with a next step", async () => {
    await expect(readTextInside(root, "src/nope.py")).rejects.toThrow(/does not exist; use find_file/);
  });
});
