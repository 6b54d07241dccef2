import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { suiteCommand } from "../../src/cli/suite-command.js";
import { packageRoot } from "../../src/tasks/index.js";

const root = mkdtempSync(join(tmpdir(), "acilab-suite-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const noInterrupt = () => ({ signal: new AbortController().signal, dispose: () => undefined });

/** Two script files with the same turns: two policies (`scripted:A`, `scripted:B`) that act alike. */
const script = join(packageRoot(), "tasks", "builtin", "median-even", "script.json");
const scriptA = join(root, "A.json");
const scriptB = join(root, "B.json");
copyFileSync(script, scriptA);
copyFileSync(script, scriptB);

async function suite(...flags: string[]) {
  const lines: string[] = [];
  const out = join(root, "out");
  const code = await suiteCommand(
    ["--tasks", "median-even", "--out", out, "--workers", "1", ...flags],
    (l) => lines.push(l),
    { interruptSignal: noInterrupt },
  );
  return { code, out: lines.join("\n"), dir: out };
}

describe("acilab suite: a one-arm experiment that resumes only the same RunSpec", () => {
  it("the same command twice resumes; another policy or another history reruns every task", async () => {
    const first = await suite("--policy", `scripted:${scriptA}`);
    expect(first.code).toBe(0);
    expect(first.out).toMatch(/median-even: running…/);
    expect(first.out).toMatch(/median-even: resolved \(submitted/);
    expect(first.out).toMatch(/resolved 1\/1 .*· policy scripted:.*A\.json/);
    expect(existsSync(join(first.dir, "experiment.db"))).toBe(true);

    const again = await suite("--policy", `scripted:${scriptA}`);
    expect(again.out).toMatch(/median-even: already done .*skipping/);
    expect(again.out).not.toMatch(/running…/);
    expect(again.out).toMatch(/resolved 1\/1/);

    // Before RunSpec the resume check compared only what precedes the first ":" of the policy, so
    // B's run reused A's result (as `anthropic:A` then `anthropic:B` did): it must run again.
    const otherPolicy = await suite("--policy", `scripted:${scriptB}`);
    expect(otherPolicy.out).not.toMatch(/already done/);
    expect(otherPolicy.out).toMatch(/median-even: resolved \(submitted/);
    expect(otherPolicy.out).toMatch(/policy scripted:.*B\.json/);

    // The check ignored --history (and every other setting) too.
    const otherHistory = await suite("--policy", `scripted:${scriptB}`, "--history", "last:5");
    expect(otherHistory.out).not.toMatch(/already done/);
    expect(otherHistory.out).toMatch(/median-even: resolved \(submitted/);

    const fresh = await suite("--policy", `scripted:${scriptB}`, "--history", "last:5", "--fresh");
    expect(fresh.out).not.toMatch(/already done/);
  });

  it("a bad setting is a usage error naming the flag, before anything runs", async () => {
    await expect(suite("--history", "sometimes")).rejects.toThrow(/--history sometimes: history/);
    await expect(suite("--max-steps", "0")).rejects.toThrow(/--max-steps 0: must be a whole number ≥ 1/);
  });
});
