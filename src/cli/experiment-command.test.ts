import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "./testing.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "acilab-experiment-cli-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const cli = (...argv: string[]) => runCli(argv);

describe("acilab experiment init", () => {
  it("writes a commented example that validate accepts, and refuses to overwrite it without --force", async () => {
    const file = join(dir, "mine.yaml");
    expect((await cli("experiment", "init", file)).code).toBe(0);
    const text = readFileSync(file, "utf8");
    expect(text).toMatch(/^# An acilab experiment/);
    expect((await cli("experiment", "validate", file)).code).toBe(0);

    writeFileSync(file, "name: mine\n");
    const again = await cli("experiment", "init", file);
    expect(again.code).toBe(1);
    expect(again.err).toContain(`${file} exists — pass --force to overwrite it, or name another file`);
    expect(readFileSync(file, "utf8")).toBe("name: mine\n");
    expect((await cli("experiment", "init", file, "--force")).code).toBe(0);
    expect(readFileSync(file, "utf8")).toBe(text);
  });

  it("writes experiment.yaml when no file is named", async () => {
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      expect((await cli("experiment", "init")).code).toBe(0);
      expect(existsSync(join(dir, "experiment.yaml"))).toBe(true);
    } finally {
      process.chdir(cwd);
    }
  });
});

describe("acilab experiment validate", () => {
  const shipped = join(import.meta.dirname, "..", "..", "experiments", "tool-sets.yaml");

  it("prints the plan: arms with their fields and hash, tasks per kind, attempts, baseline", async () => {
    const r = await cli("experiment", "validate", shipped);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^full \(baseline\) +policy=auto tools=full +[0-9a-f]{12}$/m);
    expect(r.out).toMatch(/^tasks: (\d+) — \1 coding$/m);
    const tasks = Number(/^tasks: (\d+)/m.exec(r.out)?.[1]);
    expect(r.out).toContain(`attempts: 7 arms × ${tasks} tasks × 3 repeats = ${7 * tasks * 3}`);
    expect(r.out).toContain("baseline full · workers 2 · seed 0");
  });

  it("--json: the plan as one object, full hashes and every task", async () => {
    const r = await cli("experiment", "validate", shipped, "--json");
    const plan = JSON.parse(r.out);
    expect(plan).toMatchObject({ ok: true, name: "tool-sets", baseline: "full", repeats: 3 });
    expect(plan.arms).toHaveLength(7);
    expect(plan.arms[0]).toMatchObject({
      name: "full",
      baseline: true,
      fields: { tools: "full", policy: "auto" },
    });
    expect(plan.arms[0].hash).toMatch(/^[0-9a-f]{64}$/);
    expect(plan.attempts).toBe(7 * plan.tasks.length * 3);
    expect(plan.task_counts).toEqual({ coding: plan.tasks.length });
  });

  it("prints every problem as FILE:LINE:COLUMN and exits 1; --json lists them", async () => {
    const file = join(dir, "bad.yaml");
    writeFileSync(file, "name: t\narms:\n  - name: a\n    tools: ful\ntasks: [median-even]\nrepeats: 0\n");
    const r = await cli("experiment", "validate", file);
    expect(r.code).toBe(1);
    expect(r.err.split("\n")).toEqual([
      `${file}:4:12: arms[0].tools: no tool set "ful" — did you mean "full"? (the tool sets are full, whole-file, no-search, no-tests, line-edit, shell-only, full-shell: "acilab tasks list --toolsets")`,
      `${file}:6:10: repeats: must be a whole number from 1 to 100, got 0`,
      `2 problems in ${file}`,
    ]);
    const json = await cli("experiment", "validate", file, "--json");
    expect(json.code).toBe(1);
    expect(
      JSON.parse(json.out).problems.map((p: { line: number; path: string }) => [p.line, p.path]),
    ).toEqual([
      [4, "arms[0].tools"],
      [6, "repeats"],
    ]);
  });

  it("a file that does not exist is an error that says how to make one; no file is a usage error", async () => {
    const missing = await cli("experiment", "validate", join(dir, "nope.yaml"));
    expect(missing.code).toBe(1);
    expect(missing.err).toContain("ENOENT");
    expect(missing.err).toContain("acilab experiment init");
    expect((await cli("experiment", "validate")).code).toBe(2);
    expect((await cli("experiment", "no-such-subcommand", "x.yaml")).code).toBe(2);
    const run = await cli("experiment", "run", join(dir, "nope.yaml"));
    expect(run.code).toBe(1);
    expect(run.err).toContain("acilab experiment init");
    expect((await cli("experiment", "run")).code).toBe(2);
  });
});
