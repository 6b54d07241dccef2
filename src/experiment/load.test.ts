/**
 * The bad inputs an experiment file can have, each reported at its line and column with the field
 * and what to write instead; and the files acilab ships, which must validate.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EXAMPLE_EXPERIMENT } from "./example.js";
import { attemptCount, loadExperiment } from "./load.js";
import { ExperimentError } from "./problems.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "acilab-experiment-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

/** The problems of a file that must not load, as "LINE:COLUMN: PATH: MESSAGE" without the file name. */
function problems(text: string, name = "e.yaml"): string[] {
  const file = write(name, text);
  try {
    loadExperiment(file);
  } catch (err) {
    if (!(err instanceof ExperimentError)) throw err;
    for (const p of err.problems) expect(p.file).toBe(file);
    return err.problems.map((p) => `${p.line}:${p.column}: ${p.path}: ${p.message}`);
  }
  throw new Error("the file loaded");
}

const GOOD = `name: t
arms:
  - name: full
    tools: full
  - name: line
    tools: line-edit
tasks:
  - median-even
`;

describe("loadExperiment on a good file", () => {
  it("merges base under each arm, defaults repeats, workers, seed and the baseline, and counts attempts", () => {
    const loaded = loadExperiment(
      write(
        "e.yaml",
        `name: t
base: { policy: auto, max_steps: 30, tools: full }
arms:
  - name: a
  - name: b
    max_steps: 10
    tools: no-search
tasks: [median-even, semver-range]
`,
      ),
    );
    expect(loaded.arms.map((a) => [a.name, a.fields])).toEqual([
      ["a", { policy: "auto", tools: "full", max_steps: 30 }],
      ["b", { policy: "auto", tools: "no-search", max_steps: 10 }],
    ]);
    expect(loaded.experiment).toMatchObject({ repeats: 1, workers: 2, seed: 0, baseline: "a" });
    expect(attemptCount(loaded)).toBe(4);
  });

  it("names a scripted or replay policy's file relative to the experiment file, as instances files are", () => {
    const loaded = loadExperiment(
      write(
        "e.yaml",
        `name: t
arms:
  mine: { policy: "scripted:scripts/fix.json" }
  replayed: { policy: "replay:/abs/run/trajectory.jsonl" }
  model: { policy: auto }
tasks: [median-even]
`,
      ),
    );
    expect(loaded.arms.map((a) => a.fields.policy)).toEqual([
      `scripted:${join(dir, "scripts", "fix.json")}`,
      "replay:/abs/run/trajectory.jsonl",
      "auto",
    ]);
  });

  it("reads arms written as a map, and JSON", () => {
    const fromMap = loadExperiment(
      write("m.yaml", "name: t\narms:\n  full: { tools: full }\n  bare:\ntasks: [median-even]\n"),
    );
    expect(fromMap.arms.map((a) => a.name)).toEqual(["full", "bare"]);
    const json = loadExperiment(
      write(
        "j.json",
        JSON.stringify({ name: "t", arms: [{ name: "x", tools: "full" }], tasks: ["median-even"] }),
      ),
    );
    expect(json.arms[0]?.fields).toEqual({ tools: "full" });
  });

  it("writes one resolution spelling, so 1400X800 and 1400x800 are the same arm", () => {
    const loaded = loadExperiment(
      write(
        "c.yaml",
        "name: t\narms:\n  - { name: a, resolution: 1400X800 }\n  - { name: b, resolution: 1400x800 }\ntasks: [{ cua: all }]\n",
      ),
    );
    expect(loaded.arms[0]?.fields.resolution).toBe("1400x800");
    expect(loaded.arms[0]?.hash).toBe(loaded.arms[1]?.hash);
  });

  it("accepts the example that `experiment init` writes", () => {
    const loaded = loadExperiment(write("example.yaml", EXAMPLE_EXPERIMENT));
    expect(loaded.arms.map((a) => a.name)).toEqual(["full", "whole-file"]);
    expect(loaded.tasks.length).toBeGreaterThan(1);
  });
});

describe("the experiments acilab ships", () => {
  const shipped = join(import.meta.dirname, "..", "..", "experiments");

  it("tool-sets.yaml: the seven tool sets over the built-in suite, 3 repeats, baseline full, policy auto", () => {
    const { experiment, arms, tasks } = loadExperiment(join(shipped, "tool-sets.yaml"));
    expect(arms.map((a) => a.fields.tools)).toEqual([
      "full",
      "whole-file",
      "no-search",
      "no-tests",
      "line-edit",
      "shell-only",
      "full-shell",
    ]);
    expect(arms.every((a) => a.fields.policy === "auto")).toBe(true);
    expect(experiment).toMatchObject({ repeats: 3, baseline: "full" });
    expect(tasks.length).toBeGreaterThan(0);
    expect(tasks.every((t) => t.kind === "coding" && t.source === "builtin")).toBe(true);
  });

  it("cua-resolution.yaml: every computer-use task at two or more resolutions × screenshot and a11y", () => {
    const { arms, tasks } = loadExperiment(join(shipped, "cua-resolution.yaml"));
    expect(new Set(arms.map((a) => a.fields.resolution)).size).toBeGreaterThanOrEqual(2);
    expect(new Set(arms.map((a) => a.fields.observe))).toEqual(new Set(["screenshot", "a11y"]));
    expect(arms.every((a) => a.fields.policy === "auto")).toBe(true);
    expect(tasks.length).toBeGreaterThan(0);
    expect(tasks.every((t) => t.kind === "cua")).toBe(true);
  });
});

describe("loadExperiment on bad input: every problem at its line and column", () => {
  it("an unknown arm field, with the field it probably meant", () => {
    expect(problems(GOOD.replace("    tools: line-edit", "    toolz: line-edit"))).toEqual([
      expect.stringMatching(
        /^6:5: arms\[1\]\.toolz: unknown field "toolz" — did you mean "tools"\? \(an arm takes name, policy, tools, /,
      ),
    ]);
  });

  it("an unknown top-level field", () => {
    expect(problems(`${GOOD}repeat: 3\n`)).toEqual([
      expect.stringMatching(/^9:1: repeat: unknown field "repeat" — did you mean "repeats"\?/),
    ]);
  });

  it("a tool set that does not exist, listing the ones that do", () => {
    expect(problems(GOOD.replace("tools: line-edit", "tools: ful"))).toEqual([
      '6:12: arms[1].tools: no tool set "ful" — did you mean "full"? (the tool sets are full, whole-file, no-search, no-tests, line-edit, shell-only, full-shell: "acilab tasks list --toolsets")',
    ]);
  });

  it("an unknown task id, offering the id it was close to", () => {
    expect(problems(GOOD.replace("  - median-even", "  - median-evn"))).toEqual([
      '8:5: tasks[0]: no task "median-evn" — did you mean "median-even"? (see "acilab tasks list"; an instances file is {instances: FILE})',
    ]);
  });

  it("a glob that matches no task", () => {
    expect(problems(`${GOOD}  - nosuch-*\n`)).toEqual([
      '9:5: tasks[1]: the glob "nosuch-*" matches no task — see "acilab tasks list" for the ids',
    ]);
  });

  it("a baseline that is not an arm", () => {
    expect(problems(`${GOOD}baseline: fulll\n`)).toEqual([
      '9:11: baseline: baseline "fulll" is not an arm — the arms are full, line',
    ]);
  });

  it("zero repeats", () => {
    expect(problems(`${GOOD}repeats: 0\n`)).toEqual([
      "9:10: repeats: must be a whole number from 1 to 100, got 0",
    ]);
  });

  it("two arms with one name", () => {
    expect(problems(GOOD.replace("name: line", "name: full"))).toEqual([
      '5:11: arms[1].name: arm "full" is defined twice (first as arms[0]) — give each arm its own name',
    ]);
  });

  it("two arms with one name in map form (a repeated YAML key)", () => {
    expect(
      problems("name: t\narms:\n  a: { tools: full }\n  a: { tools: no-tests }\ntasks: [median-even]\n"),
    ).toEqual(["4:3: : not valid YAML: Map keys must be unique"]);
  });

  it("a YAML syntax error, at its line", () => {
    const [first] = problems("name: t\narms:\n  - name: full\n    tools: [full\ntasks: [median-even]\n");
    expect(first).toMatch(/^5:\d+: : not valid YAML: /);
  });

  it("computer-use fields on an arm whose tasks are coding only (an error: the arm would equal another)", () => {
    expect(problems(GOOD.replace("    tools: line-edit", "    tools: line-edit\n    observe: a11y"))).toEqual(
      [
        "7:14: arms[1].observe: observe is read by computer-use tasks, but this experiment's tasks are coding only — no attempt would use it; drop it or add computer-use tasks",
      ],
    );
  });

  it("coding fields in base when every task is computer use", () => {
    expect(
      problems("name: t\nbase: { tools: full }\narms: [{ name: a, observe: a11y }]\ntasks: [{ cua: all }]\n"),
    ).toEqual([
      "2:16: base.tools: tools is read by coding tasks, but this experiment's tasks are computer-use only — no attempt would use it; drop it or add coding tasks",
    ]);
  });

  it("an instances file that does not exist, resolved against the experiment file's folder", () => {
    expect(problems(`${GOOD}  - instances: gone.jsonl\n`)).toEqual([
      `9:16: tasks[1].instances: no instances file "gone.jsonl" (looked at ${join(dir, "gone.jsonl")}) — write one with "acilab tasks export --out FILE" or "acilab tasks mirror"`,
    ]);
  });

  it("a bad value of each checked field, all reported in one run", () => {
    const found = problems(`name: t
base:
  policy: antropic:claude
  history: last:0
  sandbox: docker
  allow_net: ["https://pypi.org/simple"]
arms:
  - { name: a, resolution: 10x10, tier: huge, screenshot_history: last }
  - { name: "b/c", max_steps: 2.5, budget_usd: 0 }
tasks: [median-even, { cua: all }, { suite: nightly }]
workers: 0
`);
    expect(found.map((p) => p.split(": ").slice(0, 2).join(": "))).toEqual([
      "3:11: base.policy",
      "4:12: base.history",
      "5:12: base.sandbox",
      "6:15: base.allow_net[0]",
      "8:28: arms[0].resolution",
      "8:41: arms[0].tier",
      "8:67: arms[0].screenshot_history",
      "9:13: arms[1].name",
      "9:31: arms[1].max_steps",
      "9:48: arms[1].budget_usd",
      "10:45: tasks[2].suite",
      "11:10: workers",
    ]);
    expect(found[0]).toContain('no policy kind "antropic" — did you mean "anthropic"?');
    expect(found[2]).toContain('no sandbox backend "docker" — use auto, bwrap, process, runsc');
    expect(found[4]).toContain("each side 320–3840");
  });

  it("a file that is not a mapping, and an empty one", () => {
    expect(problems("- just\n- a list\n")).toEqual([
      expect.stringMatching(/^1:1: : an experiment file is a mapping/),
    ]);
    expect(problems("")).toEqual([expect.stringMatching(/^1:1: : an experiment file is a mapping/)]);
  });

  it("a missing required field", () => {
    expect(problems("arms: [{ name: a }]\ntasks: [median-even]\n")).toEqual([
      expect.stringMatching(/^1:1: : "name" is missing/),
    ]);
  });
});
