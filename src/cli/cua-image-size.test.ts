import { describe, expect, it } from "vitest";
import { UsageError } from "./args.js";
import { imageSizeCommand } from "./cua-image-size.js";

async function run(...argv: string[]): Promise<{ code: number; text: string }> {
  const lines: string[] = [];
  const code = await imageSizeCommand(argv, (line) => lines.push(line));
  return { code, text: lines.join("\n") };
}

describe("acilab cua image-size", () => {
  it("prints 1456×819 and 1,560 tokens for 1080p on the standard tier, with the click mapping", async () => {
    const { code, text } = await run("--screen", "1920x1080", "--tier", "standard");
    expect(code).toBe(0);
    expect(text).toContain("model image  1456×819 (downscaled before encoding)");
    expect(text).toContain("tokens       1560 (52 × 30 patches of 28 px)");
    expect(text).toMatch(/x_screen = floor\(x × 1\.318681 \+ 0\.5\)/);
    expect(text).toContain("centre       model (728, 409) → screen (960, 539)");
  });

  it("keeps 1080p whole on the high tier (2,691 tokens) and defaults to standard", async () => {
    expect((await run("--screen", "1920x1080", "--tier", "high")).text).toMatch(
      /1920×1080 \(as captured\)[\s\S]*2691 \(69 × 39/,
    );
    expect((await run("--screen", "1920x1080")).text).toContain("tier         standard");
  });

  it("answers --json with the numbers", async () => {
    const { text } = await run("--screen", "1920x1080", "--json");
    expect(JSON.parse(text)).toMatchObject({
      model: { width: 1456, height: 819 },
      tokens: 1560,
      tier: "standard",
      downscaled: true,
    });
  });

  it("refuses bad arguments with a usage error that shows the fix", async () => {
    await expect(run("--screen", "big")).rejects.toThrow(/"big" is not WIDTHxHEIGHT.*e\.g\. 1400x800/);
    await expect(run("--screen", "1920x1080", "--tier", "ultra")).rejects.toThrow(UsageError);
    await expect(run()).rejects.toThrow(/--screen WxH is required/);
    expect((await run("--help")).text).toMatch(/^acilab cua image-size/);
  });
});
