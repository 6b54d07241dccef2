import { describe, expect, it } from "vitest";
import { encodeRaw, thumbnail } from "./image.js";
import {
  actionHash,
  elementsSignature,
  greyThumbnail,
  NO_CHANGE_BELOW,
  type Pixels,
  perceptualDelta,
  RepeatDetector,
  STALL_WARNING,
  StallDetector,
} from "./stall.js";
import { fillRect, syntheticScreen } from "./testing/frames.js";

const W = 1400;
const H = 800;
const delta = (a: Pixels, b: Pixels) => perceptualDelta(greyThumbnail(a), greyThumbnail(b));

describe("perceptual delta on synthetic frames", () => {
  const base = syntheticScreen(W, H);

  it("is zero for the same frame and for a cursor blink of a few pixels", () => {
    expect(delta(base, base)).toBe(0);
    const blink = syntheticScreen(W, H);
    fillRect(blink, 700, 400, 2, 16, 0); // a text cursor appears
    expect(delta(base, blink)).toBeLessThan(NO_CHANGE_BELOW);
  });

  it("ignores ±8 shading noise on every pixel (antialiasing, subpixel rendering)", () => {
    const noisy = syntheticScreen(W, H);
    let seed = 7;
    for (let i = 0; i < noisy.data.length; i++) {
      if (i % 4 === 3) continue; // alpha
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      const v = (noisy.data[i] as number) + ((seed >> 8) % 17) - 8;
      noisy.data[i] = Math.max(0, Math.min(255, v));
    }
    expect(delta(base, noisy)).toBeLessThan(NO_CHANGE_BELOW);
  });

  it("takes a live clock's few changed digits for no change", () => {
    const ticked = syntheticScreen(W, H);
    fillRect(ticked, 1300, 10, 40, 14, 30); // the seconds digits redraw
    expect(delta(base, ticked)).toBeLessThan(NO_CHANGE_BELOW);
  });

  it("sees a real panel change (a dropdown opening, a toast) as a change", () => {
    const opened = syntheticScreen(W, H);
    fillRect(opened, 600, 300, 240, 160, 60); // a dropdown menu
    expect(delta(base, opened)).toBeGreaterThan(0.02);
    const toast = syntheticScreen(W, H);
    fillRect(toast, 1100, 720, 260, 48, 40);
    expect(delta(base, toast)).toBeGreaterThan(NO_CHANGE_BELOW);
  });

  it("accepts RGB and grey images too, and refuses thumbnails of different sizes", () => {
    const grey: Pixels = { data: new Uint8Array(100 * 50).fill(200), width: 100, height: 50, channels: 1 };
    expect(greyThumbnail(grey)[0]).toBe(200);
    const rgb: Pixels = { data: new Uint8Array(10 * 10 * 3).fill(255), width: 10, height: 10, channels: 3 };
    expect(greyThumbnail(rgb, 5)).toEqual(new Uint8Array(25).fill(255));
    expect(() => perceptualDelta(new Uint8Array(4), new Uint8Array(9))).toThrow(/differ in size/);
  });
});

describe("perceptual delta through the PNG path the loop uses (image.ts)", () => {
  const png = (p: Pixels) => encodeRaw(Buffer.from(p.data), { width: p.width, height: p.height }, 4);
  it("agrees with the raw-pixel verdicts: blink and clock are no change, a menu is a change", async () => {
    const base = await png(syntheticScreen(W, H));
    const blink = syntheticScreen(W, H);
    fillRect(blink, 700, 400, 2, 16, 0);
    fillRect(blink, 1300, 10, 40, 14, 30);
    const menu = syntheticScreen(W, H);
    fillRect(menu, 600, 300, 240, 160, 60);
    const [a, b, c] = await Promise.all([
      thumbnail(base),
      thumbnail(await png(blink)),
      thumbnail(await png(menu)),
    ]);
    expect(perceptualDelta(a, b)).toBeLessThan(NO_CHANGE_BELOW);
    expect(perceptualDelta(a, c)).toBeGreaterThan(0.02);
  });
});

describe("StallDetector", () => {
  it("warns exactly once at two no-changes in a row and halts at four", () => {
    const d = new StallDetector();
    const verdicts = [0, 0.001, 0, 0].map((x) => d.observe(x));
    expect(verdicts.map((v) => v.stalls)).toEqual([1, 2, 3, 4]);
    expect(verdicts.map((v) => v.warning)).toEqual([undefined, STALL_WARNING, undefined, undefined]);
    expect(verdicts.map((v) => v.halt)).toEqual([false, false, false, true]);
  });

  it("resets on a visible change, and a new streak warns again", () => {
    const d = new StallDetector();
    d.observe(0);
    expect(d.observe(0).warning).toBe(STALL_WARNING);
    const recovered = d.observe(0.031); // key("tab") moved the focus ring: 3.1 %
    expect(recovered).toMatchObject({ changed: true, stalls: 0, halt: false });
    d.observe(0);
    expect(d.observe(0).warning).toBe(STALL_WARNING);
  });

  it("counts an accessibility-state change as a change even when the pixels barely moved", () => {
    const d = new StallDetector();
    d.observe(0);
    expect(d.observe(0.0004, true)).toMatchObject({ changed: true, stalls: 0 });
    expect(elementsSignature([{ role: "radio", name: "Weekly", states: ["checked"] }])).not.toBe(
      elementsSignature([{ role: "radio", name: "Weekly" }]),
    );
  });

  it("counts 0.3 % (a tooltip fading in and out) as no change, unlike an any-change rule", () => {
    const d = new StallDetector();
    const v = [0.0031, 0.0028, 0.003, 0.0029].map((x) => d.observe(x));
    expect(v.at(-1)?.halt).toBe(true);
  });
});

describe("RepeatDetector", () => {
  it("warns once at N identical actions in a row and halts later; any other action resets", () => {
    const r = new RepeatDetector(3, 4);
    const click = { kind: "click", x: 642, y: 806 };
    expect(r.observe(click).count).toBe(1);
    expect(r.observe({ y: 806, x: 642, kind: "click" }).warning).toBeUndefined(); // key order is irrelevant
    expect(r.observe(click).warning).toMatch(/same action 3 times/);
    expect(r.observe(click).halt).toBe(true);
    expect(r.observe({ kind: "key", keys: "Tab" })).toEqual({ count: 1, halt: false });
  });

  it("counts only presses that changed nothing since the last one", () => {
    const r = new RepeatDetector(3, 5);
    const prev = { kind: "click_element", index: 3 };
    // Each press shows another month: progress, however often it is asked for.
    const paging = [1, 2, 3, 4, 5, 6].map(() => r.observe(prev, true));
    expect(paging.map((v) => v.count)).toEqual([1, 1, 1, 1, 1, 1]);
    // Then the same press stops changing anything (the first month there is): now it counts.
    const stuck = [1, 2, 3, 4].map(() => r.observe(prev, false));
    expect(stuck.map((v) => v.count)).toEqual([2, 3, 4, 5]);
    expect(stuck.at(-1)?.halt).toBe(true);
  });

  it("refuses settings that could never warn", () => {
    expect(() => new RepeatDetector(1, 1)).toThrow(/2 ≤ warnAt ≤ haltAt/);
    expect(actionHash({ a: 1, b: [2] })).toBe(actionHash({ b: [2], a: 1 }));
  });
});
