import { rmSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { makeScratch, mountedUnder } from "../src/workspace/testing.js";
import { benchWorkspaces } from "./workspace.js";

describe("benchWorkspaces", () => {
  it("measures every method on a small repository and cleans up after itself", async () => {
    const scratch = makeScratch("bench");
    const rows = await benchWorkspaces({ files: 60, n: 2, slowN: 1, scratchDir: scratch });
    const names = rows.map((r) => r.name);
    expect(names).toEqual(expect.arrayContaining(["cp -a", "git worktree add", "git clone --shared"]));
    expect(names.some((n) => /: checkout$/.test(n))).toBe(true);
    expect(names.some((n) => /: reset$/.test(n))).toBe(true);
    for (const r of rows) {
      expect(r.n).toBeGreaterThan(0);
      expect(r.medianMs).toBeGreaterThan(0);
      expect(r.p95Ms).toBeGreaterThanOrEqual(r.medianMs);
    }
    expect(mountedUnder(scratch)).toEqual([]);
    rmSync(scratch, { recursive: true, force: true });
  });
});
