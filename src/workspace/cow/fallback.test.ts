import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { needing } from "../../testing/needs.js";
import { prepareSnapshot } from "./snapshot.js";
import { makeScratch, makeSourceTree, mountedUnder, overlayWorksHere, treeFingerprint } from "./testing.js";
import type { Snapshot } from "./types.js";

const canOverlay = await overlayWorksHere();
let scratch: string;
const snapshots: Snapshot[] = [];

beforeAll(() => {
  scratch = makeScratch("fallback");
});

afterEach(async () => {
  // Innermost first: a snapshot may live inside another's checkout.
  for (const s of snapshots.splice(0).reverse()) await s.dispose();
  expect(mountedUnder(scratch)).toEqual([]);
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("copy fallback", () => {
  it("gives a copy with a warning when asked, with the same contract", async () => {
    const s = await prepareSnapshot(makeSourceTree(scratch), { scratchDir: scratch, mode: "copy" });
    snapshots.push(s);
    const before = treeFingerprint(s.dir);
    const [a, b] = await Promise.all([s.checkout(), s.checkout()]);
    if (!a || !b) throw new Error("two checkouts expected");
    expect(a.kind).toBe("copy");
    expect(a.layers).toBeUndefined();
    expect(a.warning).toMatch(/copy checkout requested \(mode "copy"\): it is a full copy/);
    writeFileSync(join(a.root, "src/app.py"), "print('a')\n");
    writeFileSync(join(b.root, "src/app.py"), "print('b')\n");
    expect(readFileSync(join(a.root, "src/app.py"), "utf8")).toBe("print('a')\n");
    expect(await b.diff()).toEqual({ added: [], modified: ["src/app.py"], deleted: [], uncarried: [] });
    expect(await a.gitDiff()).toContain("+print('a')");
    await a.reset();
    expect(await a.diff()).toEqual({ added: [], modified: [], deleted: [], uncarried: [] });
    expect(treeFingerprint(s.dir)).toBe(before);
    await a.dispose();
    expect(existsSync(a.root)).toBe(false);
  });

  needing("overlayfs", !canOverlay && "overlayfs cannot be mounted here").it(
    "falls back, and says why, when the overlay mount really fails (nested overlay)",
    async () => {
      // overlayfs stacks two deep at most: a snapshot inside a checkout of a snapshot inside a checkout
      // (an overlay over an overlay) cannot be the lower layer of a third.
      let parent = scratch;
      for (const level of [1, 2]) {
        const s = await prepareSnapshot(makeSourceTree(parent), { scratchDir: parent });
        snapshots.push(s);
        const host = await s.checkout();
        expect(host.kind, `level ${level}`).toBe("overlay");
        parent = host.root;
      }
      const inner = await prepareSnapshot(makeSourceTree(parent), { scratchDir: parent });
      snapshots.push(inner);
      const first = await inner.checkout();
      expect(first.kind).toBe("copy");
      expect(first.warning).toMatch(
        /^overlayfs is unavailable here \(mounting an overlay at \/\S+\/root failed: .*\(the kernel log, dmesg, says why\)\); it is a full copy/,
      );
      expect(first.warning).toContain("two deep at most");
      writeFileSync(join(first.root, "README.md"), "# changed\n");
      expect(await first.diff()).toEqual({ added: [], modified: ["README.md"], deleted: [], uncarried: [] });
      // Later checkouts do not try again.
      const second = await inner.checkout();
      expect(second.kind).toBe("copy");
      expect(readFileSync(join(second.root, "README.md"), "utf8")).toBe("# demo\n");
    },
  );
});
