import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makePythonTask } from "../tasks/testing.js";
import { runCli } from "./testing.js";

const cli = (argv: string[]) => runCli(argv);

const cleanup: string[] = [];
afterEach(() => {
  for (const d of cleanup.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("acilab CLI", () => {
  it("prints help for every command", async () => {
    for (const argv of [
      ["--help"],
      ["run", "--help"],
      ["suite", "--help"],
      ["tasks", "--help"],
      ["help", "run"],
    ]) {
      const r = await cli(argv);
      expect(r.code).toBe(0);
      expect(r.out).toMatch(/Usage: acilab/);
    }
  });

  it("rejects unknown commands and options with a pointer to --help", async () => {
    const unknown = await cli(["fly"]);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/unknown command "fly"[\s\S]*acilab --help/);
    const badFlag = await cli(["run", "--tsak", "x"]);
    expect(badFlag.code).toBe(2);
    expect(badFlag.err).toMatch(/--tsak[\s\S]*acilab run --help/);
    const missing = await cli(["run"]);
    expect(missing.err).toMatch(/--task is required/);
    // A word where a flag belongs is refused, saying how to write it — never ignored.
    const bare = await cli(["run", "median-even"]);
    expect([bare.code, bare.err.split("\n")[0]]).toEqual([
      2,
      'acilab run: unexpected argument "median-even" — a task is named with --task: acilab run --task median-even',
    ]);
    const suite = await cli(["suite", "median-even"]);
    expect([suite.code, suite.err.split("\n")[0]]).toEqual([
      2,
      'acilab suite: unexpected argument "median-even" — to run some tasks only: acilab suite --tasks median-even',
    ]);
    const format = await cli(["experiment", "report", "/nowhere", "--format", "LaTeX"]);
    expect(format.err).toContain(
      '--format must be one of md, json, html, latex, got "LaTeX" — did you mean "latex"?',
    );
  });

  it("says what to do when a task does not exist", async () => {
    const r = await cli(["run", "--task", "/no/such/task"]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/task "\/no\/such\/task" not found[\s\S]*acilab tasks list/);
  });

  it("points a computer-use task id at acilab cua", async () => {
    const r = await cli(["run", "--task", "notify-weekly"]);
    expect(r.code).not.toBe(0);
    expect(r.err).toMatch(/"notify-weekly" is a computer-use task[\s\S]*acilab cua --task notify-weekly/);
  });

  it("lists the built-in tasks and tool sets", async () => {
    const r = await cli(["tasks", "list", "--json"]);
    expect(r.code).toBe(0);
    // Computer-use tasks (kind "cua") follow the coding ones and have no language.
    const tasks = (JSON.parse(r.out) as Array<{ id: string; kind: string; language: string }>).filter(
      (t) => t.kind === "coding",
    );
    expect(tasks.length).toBeGreaterThanOrEqual(3);
    expect(tasks.map((t) => t.id)).toContain("median-even");
    expect(new Set(tasks.map((t) => t.language))).toEqual(new Set(["python", "typescript"]));
    const sets = await cli(["tasks", "list", "--toolsets"]);
    for (const name of ["full", "whole-file", "no-search", "no-tests", "line-edit", "shell-only"])
      expect(sets.out).toContain(name);
  });

  it("runs a task with a script end to end and writes the four files", async () => {
    const taskDir = makePythonTask({
      files: {
        "script.json": JSON.stringify({
          turns: [
            { tool: "grep", input: { pattern: "def add" } },
            { tool: "str_replace", input: { path: "calc.py", old: "return a - b", new: "return a + b" } },
            { tool: "run_tests", input: {} },
            { tool: "submit", input: {} },
          ],
        }),
      },
    });
    const out = mkdtempSync(join(tmpdir(), "acilab-cli-out-"));
    cleanup.push(taskDir, out);
    const r = await cli([
      "run",
      "--task",
      taskDir,
      "--policy",
      "scripted",
      "--tools",
      "full",
      "--out",
      out,
      "--json",
    ]);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    const result = JSON.parse(readFileSync(join(out, "result.json"), "utf8"));
    expect(result).toMatchObject({
      task: "calc-add",
      kind: "coding",
      tools: "full",
      resolved: true,
      stop_reason: "submitted",
      steps: 4,
      cost_usd: 0,
    });
    for (const key of ["input", "output", "cache_read", "cache_write"])
      expect(typeof result.usage[key]).toBe("number");
    expect(typeof result.wall_s).toBe("number");
    expect(readFileSync(join(out, "patch.diff"), "utf8")).toMatch(/- {4}return a - b\n\+ {4}return a \+ b/);
    expect(existsSync(join(out, "report.json"))).toBe(true);
    const lines = readFileSync(join(out, "trajectory.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.type)).toEqual(["run_start", "turn", "turn", "turn", "turn", "run_end"]);

    // The trajectory replays to the same result.
    const out2 = mkdtempSync(join(tmpdir(), "acilab-cli-replay-"));
    cleanup.push(out2);
    const replay = await cli([
      "run",
      "--task",
      taskDir,
      "--policy",
      `replay:${join(out, "trajectory.jsonl")}`,
      "--out",
      out2,
      "--json",
    ]);
    expect(replay.code).toBe(0);
    expect(JSON.parse(readFileSync(join(out2, "result.json"), "utf8"))).toMatchObject({
      resolved: true,
      steps: 4,
    });
    expect(readFileSync(join(out2, "patch.diff"), "utf8")).toBe(
      readFileSync(join(out, "patch.diff"), "utf8"),
    );
  });

  it("compares the two action formats on the Acme task", async () => {
    const out = mkdtempSync(join(tmpdir(), "acilab-cli-acme-"));
    cleanup.push(out);
    const r = await cli(["run", "--task", "acme", "--action-format", "both", "--out", out]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/format\s+turns\s+tool calls\s+input tokens\s+answer\s+resolved/);
    expect(r.out).toMatch(/^json\s+6\s+14\s+[\d,]+ \(est\.\)\s+We owe Acme \$279\.00.*yes$/m);
    expect(r.out).toMatch(/^code\s+2\s+14\s+[\d,]+ \(est\.\)\s+We owe Acme \$279\.00.*yes$/m);
    expect(existsSync(join(out, "code", "trajectory.jsonl"))).toBe(true);
    const bad = await cli(["run", "--task", "acme", "--action-format", "xml"]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--action-format must be json, code or both/);
    const taskDir = makePythonTask();
    cleanup.push(taskDir);
    const repo = await cli(["run", "--task", taskDir, "--action-format", "both"]);
    expect(repo.code).toBe(2);
    expect(repo.err).toMatch(/both compares formats on a tools task such as acme/);
  });
});
