import { describe, expect, it } from "vitest";
import { Burst } from "./page-guard.js";

describe("a burst of events in a sliding window", () => {
  it("says so once `limit` events fall within the window, and forgets what slid out", () => {
    const burst = new Burst(3, 1000);
    expect([burst.add(0), burst.add(10), burst.add(999)]).toEqual([false, false, true]);
    // 0 and 10 slid out: two events in the last second.
    expect(burst.add(1500)).toBe(false);
    expect(burst.add(1600)).toBe(true);
  });

  it("keeps no more than the window holds however long the page goes on", () => {
    const burst = new Burst(1000, 1000);
    let floods = 0;
    // 500 events a second for a minute: never a flood.
    for (let t = 0; t < 60_000; t += 2) if (burst.add(t)) floods++;
    expect(floods).toBe(0);
    expect((burst as unknown as { times: number[] }).times.length).toBeLessThanOrEqual(2001);
  });
});
