import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  dirOwnerState,
  markOwned,
  OWNER_FILE,
  readOwnerMark,
  releaseOwned,
  sweepDeadOwners,
} from "./index.js";

const parent = mkdtempSync(join(tmpdir(), "acilab-leftovers-test-"));
afterAll(() => rmSync(parent, { recursive: true, force: true }));

/** A process that marks a directory as its own, prints it, and is SIGKILLed (so no exit handler runs). */
function killedOwnerDir(prefix: string): string {
  const child = spawnSync(
    process.execPath,
    [
      "--import",
      import.meta.resolve("tsx"),
      "-e",
      `const { mkdtempSync } = await import("node:fs");
       const { markOwned } = await import(${JSON.stringify(new URL("./index.ts", import.meta.url).pathname)});
       console.log(markOwned(mkdtempSync(${JSON.stringify(join(parent, prefix))})));
       process.kill(process.pid, "SIGKILL");`,
    ],
    { encoding: "utf8" },
  );
  expect(child.signal, child.stderr).toBe("SIGKILL");
  return child.stdout.trim();
}

describe("owned scratch directories", () => {
  it("are swept when their owner was killed, never when it lives or cannot be judged", async () => {
    const dead = killedOwnerDir("acilab-base-");
    writeFileSync(join(dead, "big.bin"), "x".repeat(1000));
    expect(readOwnerMark(dead)?.pid).toBeGreaterThan(0);
    expect(await dirOwnerState(dead)).toBe("dead");

    const mine = markOwned(mkdtempSync(join(parent, "acilab-base-")));
    expect(await dirOwnerState(mine)).toBe("alive");
    // No marker (made this instant, or by something else), or a marker naming no known owner: kept.
    const bare = mkdtempSync(join(parent, "acilab-base-"));
    const foreign = mkdtempSync(join(parent, "acilab-base-"));
    writeFileSync(join(foreign, OWNER_FILE), JSON.stringify({ token: "4194305-0-0badc0de", pid: 4194305 }));
    // Another prefix is not asked about, dead owner or not.
    const other = killedOwnerDir("acilab-other-");

    const removed = await sweepDeadOwners(["acilab-base-"], parent);
    expect(removed).toEqual([dead]);
    expect([
      existsSync(dead),
      existsSync(mine),
      existsSync(bare),
      existsSync(foreign),
      existsSync(other),
    ]).toEqual([false, true, true, true, true]);
    releaseOwned(mine);
    expect(existsSync(mine)).toBe(false);
  });

  it("never fails the sweep: a removal that throws is left for later, a missing parent is nothing", async () => {
    const dead = killedOwnerDir("acilab-browser-");
    const removed = await sweepDeadOwners(["acilab-browser-"], parent, {
      remove: () => {
        throw new Error("busy");
      },
    });
    expect(removed).toEqual([]);
    expect(existsSync(dead)).toBe(true);
    expect(await sweepDeadOwners(["acilab-browser-"], join(parent, "nowhere"))).toEqual([]);
    expect(await sweepDeadOwners(["acilab-browser-"], parent)).toEqual([dead]);
  });

  it("refuses to mark a directory twice (the marker is made exclusively)", () => {
    const dir = join(parent, "twice");
    mkdirSync(dir);
    markOwned(dir, { removeAtExit: false });
    expect(() => markOwned(dir)).toThrow(/EEXIST/);
  });
});
