import { describe, expect, it } from "vitest";
import {
  checkModelPoint,
  clickMapping,
  imageTokens,
  modelImageSize,
  parseSize,
  parseTier,
  TIERS,
  toModel,
  toScreen,
} from "./scaling.js";

const HD = { width: 1920, height: 1080 };

describe("imageTokens", () => {
  it("counts started 28-pixel patches", () => {
    expect(imageTokens({ width: 1400, height: 788 })).toBe(1450); // 50 × 29
    expect(imageTokens({ width: 1456, height: 819 })).toBe(1560); // 52 × 30
    expect(imageTokens(HD)).toBe(2691); // 69 × 39
    expect(imageTokens({ width: 1568, height: 882 })).toBe(1792); // the edge-only size busts the token cap
  });
});

describe("modelImageSize", () => {
  it("shrinks 1080p to 1456×819 on the standard tier: both caps, not the long edge alone", () => {
    const size = modelImageSize(HD, TIERS.standard);
    expect(size).toEqual({ width: 1456, height: 819 });
    expect(imageTokens(size)).toBe(1560);
  });

  it("keeps 1080p at full size on the high tier (2,691 tokens)", () => {
    expect(modelImageSize(HD, TIERS.high)).toEqual(HD);
  });

  it("never upscales a screen that already fits", () => {
    expect(modelImageSize({ width: 1400, height: 788 }, TIERS.standard)).toEqual({
      width: 1400,
      height: 788,
    });
    expect(modelImageSize({ width: 640, height: 480 }, TIERS.high)).toEqual({ width: 640, height: 480 });
  });

  it("fits both caps and keeps the aspect for big and portrait screens", () => {
    for (const screen of [
      { width: 3840, height: 2160 },
      { width: 2560, height: 1600 },
      { width: 1080, height: 1920 },
      { width: 5000, height: 300 },
    ]) {
      for (const tier of [TIERS.standard, TIERS.high]) {
        const size = modelImageSize(screen, tier);
        expect(Math.max(size.width, size.height)).toBeLessThanOrEqual(tier.maxLongEdge);
        expect(imageTokens(size)).toBeLessThanOrEqual(tier.maxTokens);
        const aspect = size.width / size.height / (screen.width / screen.height);
        expect(Math.abs(aspect - 1)).toBeLessThan(0.01);
        if (size.width === screen.width && size.height === screen.height) continue; // fits as it is
        // Largest: one more pixel on the long edge would break a cap.
        const landscape = size.width >= size.height;
        const bigger = landscape
          ? { width: size.width + 1, height: Math.round((screen.height * (size.width + 1)) / screen.width) }
          : {
              width: Math.round((screen.width * (size.height + 1)) / screen.height),
              height: size.height + 1,
            };
        const fits =
          Math.max(bigger.width, bigger.height) <= tier.maxLongEdge && imageTokens(bigger) <= tier.maxTokens;
        expect(fits).toBe(false);
      }
    }
    expect(modelImageSize({ width: 1080, height: 1920 }, TIERS.standard)).toEqual({
      width: 819,
      height: 1456,
    });
  });
});

describe("toScreen", () => {
  const model = { width: 1456, height: 819 };
  it("maps a Submit button at (728, 410) in a 1456×819 image back with separate ratios, rounding half up", () => {
    expect(toScreen(728, 410, model, HD)).toEqual({ x: 960, y: 541 });
  });

  it("clamps to the screen at the far edges", () => {
    expect(toScreen(1455.9, 818.9, model, HD)).toEqual({ x: 1919, y: 1079 });
    expect(toScreen(0, 0, model, HD)).toEqual({ x: 0, y: 0 });
  });

  it("round-trips element centres through toModel within a screen pixel or two", () => {
    for (const [x, y] of [
      [960, 541],
      [13, 1070],
      [1900, 7],
    ] as const) {
      const m = toModel(x, y, model, HD);
      const back = toScreen(m.x, m.y, model, HD);
      expect(Math.abs(back.x - x)).toBeLessThanOrEqual(1);
      expect(Math.abs(back.y - y)).toBeLessThanOrEqual(1);
    }
  });

  it("gives the per-axis mapping factors", () => {
    const m = clickMapping(model, HD);
    expect(m.scaleX).toBeCloseTo(1.318681, 5);
    expect(m.scaleY).toBeCloseTo(1.318681, 5);
  });
});

describe("checkModelPoint", () => {
  const model = { width: 1456, height: 819 };
  it("refuses a point outside the model's image even when the screen is big enough to hold it", () => {
    expect(checkModelPoint(1500, 100, model)).toMatch(/outside the screenshot, which is 1456×819/);
    expect(checkModelPoint(-1, 5, model)).toMatch(/x in 0\.\.1455/);
    expect(checkModelPoint(1456, 0, model)).toBeDefined();
    expect(checkModelPoint(1455, 818, model)).toBeUndefined();
  });
});

describe("parsing", () => {
  it("reads WxH and tier names, with errors that show the fix", () => {
    expect(parseSize("1920x1080")).toEqual(HD);
    expect(parseSize("1400×800")).toEqual({ width: 1400, height: 800 });
    expect(() => parseSize("1920", "--screen")).toThrow(
      /--screen "1920" is not WIDTHxHEIGHT.*e\.g\. 1400x800/,
    );
    expect(parseTier("high").maxTokens).toBe(4784);
    expect(() => parseTier("max")).toThrow(/use standard .* or high/);
  });
});
