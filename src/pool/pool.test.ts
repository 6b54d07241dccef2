import { describe, expect, it } from "vitest";
import { forEachLimited } from "./index.js";

/** A promise the test resolves by hand, so concurrency is observed, not timed. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

describe("forEachLimited", () => {
  it("runs at most `workers` at once, starting items in order", async () => {
    const gates = [gate(), gate(), gate(), gate()];
    const started: number[] = [];
    let running = 0;
    let peak = 0;
    const done = forEachLimited([0, 1, 2, 3], { workers: 2 }, async (i) => {
      started.push(i);
      running++;
      peak = Math.max(peak, running);
      await gates[i]?.opened;
      running--;
    });
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual([0, 1]);
    gates[1]?.open();
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual([0, 1, 2]);
    for (const g of gates) g.open();
    await done;
    expect(started).toEqual([0, 1, 2, 3]);
    expect(peak).toBe(2);
  });

  it("starts nothing new after the signal fires, and a bad worker count means one", async () => {
    const controller = new AbortController();
    const started: number[] = [];
    await forEachLimited([0, 1, 2], { workers: 0, signal: controller.signal }, async (i) => {
      started.push(i);
      controller.abort();
    });
    expect(started).toEqual([0]);
  });
});
