import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "./testing.js";

const dir = mkdtempSync(join(tmpdir(), "acilab-bon-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("acilab bon-curve", () => {
  it("prints pass@n and best-of-n per sigma, and draws them", async () => {
    const plot = join(dir, "bon.svg");
    const { code, out } = await runCli([
      "bon-curve",
      "--beta",
      "0.3,0.45",
      "--issues",
      "400",
      "--n",
      "8",
      "--plot",
      plot,
    ]);
    expect(code).toBe(0);
    const lines = out.split("\n");
    expect(lines[0]).toMatch(/^400 issues, mean p 0\.\d{3}, margin 1$/);
    expect(lines[1]).toMatch(/^n\s+pass@n\s+best-of-n σ=0\.5\s+best-of-n σ=1\s+best-of-n σ=3$/);
    expect(lines.slice(3, 7).map((l) => l.split(/\s+/)[0])).toEqual(["1", "2", "4", "8"]);
    // At n = 1 every curve is mean p; at n = 8 they fall in the order of the noise.
    const row = (n: string) =>
      (lines.find((l) => l.startsWith(`${n} `)) ?? "").split(/\s+/).slice(1).map(Number);
    expect(new Set(row("1")).size).toBe(1);
    const [cov, s05, s1, s3] = row("8");
    expect(cov).toBeGreaterThan(s05 as number);
    expect(s05).toBeGreaterThan(s1 as number);
    expect(s1).toBeGreaterThan(s3 as number);
    expect(readFileSync(plot, "utf8")).toMatch(/^<svg/);
  });

  it("reads probabilities from a file, and prints JSON", async () => {
    const file = join(dir, "p.txt");
    writeFileSync(file, "0.25\n0.75\n");
    const { code, out } = await runCli(["bon-curve", "--p", file, "--n", "2", "--sigma", "0", "--json"]);
    expect(code).toBe(0);
    const parsed = JSON.parse(out) as { cov: number[]; bon: Record<string, number[]> };
    expect(parsed.cov[1]).toBeCloseTo((1 - 0.75 ** 2 + 1 - 0.25 ** 2) / 2, 12);
    expect(parsed.bon["0"]).toEqual(parsed.cov); // a perfect verifier keeps all of coverage
  });

  it("says what is wrong with bad input", async () => {
    const bad = join(dir, "bad.json");
    writeFileSync(bad, "[0.5, -0.1]");
    const cases: [string[], RegExp][] = [
      [["--p", bad], /entry 2 \(-0.1\) is not a probability/],
      [["--beta", "1"], /--beta takes two shapes A,B/],
      [["--beta", "1,1", "--sigma=-1"], /--sigma must be a list of numbers ≥ 0/],
      [["--beta", "1,1", "--n", "0"], /--n must be a whole number from 1 to 10000/],
      [[], /exactly one of --p FILE or --beta A,B/],
    ];
    for (const [args, message] of cases) {
      const { code, err } = await runCli(["bon-curve", ...args]);
      expect(code).toBe(2);
      expect(err).toMatch(message);
    }
  });
});
