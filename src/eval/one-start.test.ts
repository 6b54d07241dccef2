import { lstatSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { HANG_GUARD_MS } from "../testing/time.js";
import type { TestFile } from "./canaries/index.js";
import { encodePlant, gradeInOneStart, prepareAndRun } from "./one-start.js";
import { EMPTY_PLANT, type PlantPlan } from "./plant.js";
import { applyCandidate, evalScript } from "./steps.js";
import { gradingSandbox } from "./testing.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const MARK = "\n# planted by the harness\n";
/** A plan that writes `path` as read back (empty when it was not) with MARK after it. */
const plantInto =
  (path: string) =>
  (files: readonly TestFile[] = []): PlantPlan => ({
    ...EMPTY_PLANT,
    files: [{ path, text: `${files.find((f) => f.path === path)?.text ?? ""}${MARK}` }],
  });
const run = (argv: string[]) => ({ argv, timeoutMs: HANG_GUARD_MS, outputLimit: 100_000 });

describe("grading in one sandbox start", () => {
  it("patches, clears a planted symlink, restores, reads back, plants and runs — one start", async () => {
    const { repo, runner, base, instance } = await gradingSandbox(cleanups);
    const root = repo.checkout.root;
    rmSync(join(root, "tests"), { recursive: true, force: true });
    symlinkSync("/etc", join(root, "tests"));
    let seen: readonly TestFile[] = [];
    const ran = await gradeInOneStart(
      runner,
      {
        patch: instance.patch,
        base,
        clear: ["tests/test_calc.py"],
        restore: ["tests/test_calc.py"],
        testPatch: instance.test_patch,
        read: ["tests/test_hidden.py", "tests/missing.py"],
      },
      {
        planFor: (files) => {
          seen = files;
          return plantInto("tests/test_hidden.py")(files);
        },
        ...run(["cat", "tests/test_hidden.py"]),
      },
    );
    if (ran.kind !== "ran") throw new Error(`not run: ${JSON.stringify(ran)}`);
    expect(runner.steps).toHaveLength(1);
    // Read back: the hidden test file the test patch added; a missing one is left out.
    expect(seen.map((f) => f.path)).toEqual(["tests/test_hidden.py"]);
    expect(seen[0]?.text).toMatch(/def test_add/);
    expect(seen[0]?.text).not.toContain(MARK);
    // The runner saw the planted text; only its own output is the run's (no git apply chatter).
    expect(ran.run.exitCode).toBe(0);
    expect(ran.run.output.endsWith(MARK)).toBe(true);
    expect(ran.run.output).not.toMatch(/Applied patch|Checking patch/);
    expect(lstatSync(join(root, "tests")).isDirectory()).toBe(true);
    expect(readFileSync(join(root, "tests/test_calc.py"), "utf8")).toMatch(/def test_mul/);
    expect(readFileSync(join(root, "calc.py"), "utf8")).toMatch(/a \+ b/);
    // eval.sh replays it: the plan that went in on fd 4 is recorded with the step.
    expect(runner.steps[0]?.fd4).toBe(encodePlant(plantInto("tests/test_hidden.py")(seen)));
    expect(evalScript("t", runner.steps)).toMatch(/3>\/dev\/null 4<<'ACILAB_FD4_1' <<'ACILAB_STDIN_1'/);
  });

  it("starts the runner as the sandbox's only process, with the channel closed", async () => {
    const { runner, base, instance } = await gradingSandbox(cleanups);
    const probe =
      'cat /proc/$PPID/comm; for f in 3 4; do [ -e /proc/$$/fd/$f ] && echo "fd $f open"; done; echo end';
    const ran = await gradeInOneStart(
      runner,
      { patch: instance.patch, base, clear: [], restore: [], testPatch: instance.test_patch, read: [] },
      { planFor: () => EMPTY_PLANT, ...run(["bash", "-c", probe]) },
    );
    if (ran.kind !== "ran") throw new Error(`not run: ${JSON.stringify(ran)}`);
    expect(ran.run.stdout.trim().split("\n")).toEqual(["bwrap", "end"]);
  });

  it("refuses to plant through a symlink", async () => {
    const { repo, runner, base, instance } = await gradingSandbox(cleanups);
    symlinkSync("/etc/hostname", join(repo.checkout.root, "tests/test_link.py"));
    const ran = await gradeInOneStart(
      runner,
      { patch: instance.patch, base, clear: [], restore: [], testPatch: instance.test_patch, read: [] },
      { planFor: plantInto("tests/test_link.py"), ...run(["true"]) },
    );
    if (ran.kind !== "ran") throw new Error(`not run: ${JSON.stringify(ran)}`);
    expect(ran.run.exitCode).toBe(125);
    expect(ran.run.stderr).toMatch(/cannot plant tests into tests\/test_link.py/);
  });

  it("reports a refusal by git apply (nothing changed); another strategy, then the rest in one start", async () => {
    const { repo, runner, base, instance } = await gradingSandbox(cleanups);
    // Context that drifted: git apply refuses it, GNU patch's fuzz takes it.
    const drifted = instance.patch.replace(" def mul(a, b):", " def mul(x, y):");
    const input = {
      patch: drifted,
      base,
      clear: [],
      restore: [],
      testPatch: instance.test_patch,
      read: ["tests/test_hidden.py"],
    };
    const options = { planFor: plantInto("tests/test_hidden.py"), ...run(["cat", "calc.py"]) };
    const first = await gradeInOneStart(runner, input, options);
    expect(first.kind).toBe("refused");
    if (first.kind !== "refused") return;
    expect(first.log).toMatch(/patch failed|does not apply/);
    expect(readFileSync(join(repo.checkout.root, "calc.py"), "utf8")).toMatch(/a - b/);
    const apply = await applyCandidate(
      runner,
      drifted,
      () => repo.checkout.reset(),
      `git apply: ${first.log}`,
    );
    expect(apply.applied).toBe(true);
    const ran = await prepareAndRun(runner, input, options);
    if (ran.kind !== "ran") throw new Error(`not run: ${JSON.stringify(ran)}`);
    expect(ran.run.stdout).toMatch(/a \+ b/);
    expect(readFileSync(join(repo.checkout.root, "tests/test_hidden.py"), "utf8").endsWith(MARK)).toBe(true);
  });
});
