import { describe, expect, it } from "vitest";
import type { ActionRecord, TrajectoryRecord } from "../trajectory/index.js";
import { classifyFailure, destroyedFiles, editedTests, ranTests } from "./taxonomy.js";

function action(name: string, input: unknown, observation: string, files: string[] = []): ActionRecord {
  return { call: { id: "c", name, input }, observation, error: null, duration_ms: 1, files_changed: files };
}

function turns(...actions: ActionRecord[]): TrajectoryRecord[] {
  return actions.map((a, i) => ({ type: "turn", step: i + 1, actions: [a] }) as unknown as TrajectoryRecord);
}

const RAN = action("run_tests", {}, "1 failed");

describe("failure taxonomy", () => {
  it("counts a whole-file write that kept under half of a file of 10+ lines as destroying it", () => {
    expect(
      destroyedFiles([action("write_file", {}, "ok: wrote src/a.py (3 lines; it had 40)", ["src/a.py"])]),
    ).toEqual(["src/a.py"]);
    // half or more kept, a short file, a new file: not destroyed
    expect(destroyedFiles([action("write_file", {}, "ok: wrote src/a.py (20 lines; it had 40)")])).toEqual(
      [],
    );
    expect(destroyedFiles([action("write_file", {}, "ok: wrote src/a.py (1 line; it had 6)")])).toEqual([]);
    expect(destroyedFiles([action("write_file", {}, "ok: created src/a.py (1 line)")])).toEqual([]);
  });

  it("finds a destroying write inside a code action's calls", () => {
    const code: ActionRecord = {
      ...action("python", { code: "..." }, "done"),
      calls: [
        {
          tool: "write_file",
          input: {},
          output: "ok: wrote m.py (2 lines; it had 90)",
          error: null,
          duration_ms: 1,
        },
      ],
    };
    expect(destroyedFiles([code])).toEqual(["m.py"]);
  });

  it("takes run_tests, a known test runner in a shell command, or the task's own command as running the tests", () => {
    expect(ranTests([RAN])).toBe(true);
    expect(ranTests([action("shell", { command: "cd lib && python -m pytest -q" }, "")])).toBe(true);
    expect(ranTests([action("shell", { command: "./check.sh unit" }, "")], ["./check.sh", "unit"])).toBe(
      true,
    );
    expect(ranTests([action("shell", { command: "cat setup.py" }, "")], ["./check.sh"])).toBe(false);
  });

  it("classes a submitted wrong patch that never ran the tests, and a plain wrong fix", () => {
    const never = classifyFailure({
      stopReason: "submitted",
      coding: true,
      records: turns(action("view", {}, "")),
    });
    expect(never).toEqual({ primary: "never_ran_tests", all: ["never_ran_tests", "wrong_fix"] });
    expect(classifyFailure({ stopReason: "submitted", coding: true, records: turns(RAN) })).toEqual({
      primary: "wrong_fix",
      all: ["wrong_fix"],
    });
  });

  it("puts what the agent did to the repository before how the run ended", () => {
    const records = turns(
      RAN,
      action("write_file", {}, "ok: wrote src/lib.py (1 line; it had 50)", ["src/lib.py"]),
      action("str_replace", {}, "ok", ["tests/test_lib.py"]),
    );
    expect(classifyFailure({ stopReason: "step_limit", coding: true, records })).toEqual({
      primary: "destroyed_file",
      all: ["destroyed_file", "edited_tests", "step_cap"],
    });
  });

  it("counts a changed test file as edited tests, but not a reproduction test the agent created", () => {
    const made = action("create_file", {}, "ok: created tests/test_repro.py (7 lines)", [
      "tests/test_repro.py",
    ]);
    const again = action("str_replace", {}, "ok", ["tests/test_repro.py"]);
    expect(editedTests([made, again])).toEqual([]);
    expect(editedTests([made, action("str_replace", {}, "ok", ["tests/test_core.py"])])).toEqual([
      "tests/test_core.py",
    ]);
  });

  it("maps each stop reason, infrastructure first", () => {
    const of = (stop: string) =>
      classifyFailure({ stopReason: stop, coding: true, records: turns(RAN) }).primary;
    expect(
      ["time_limit", "budget", "step_limit", "format_errors", "stalled", "repeated", "env_error"].map(of),
    ).toEqual(["timeout", "budget", "step_cap", "format_errors", "stalled", "stalled", "infrastructure"]);
    const destroyed = turns(action("write_file", {}, "ok: wrote a.py (1 line; it had 50)"));
    expect(classifyFailure({ stopReason: "policy_error", coding: true, records: destroyed }).primary).toBe(
      "infrastructure",
    );
  });

  it("without a trajectory, claims only what the stop reason says (never 'never ran the tests')", () => {
    expect(classifyFailure({ stopReason: "submitted", coding: true, records: null })).toEqual({
      primary: "wrong_fix",
      all: ["wrong_fix"],
    });
    expect(classifyFailure({ stopReason: "budget", coding: true, records: null }).all).toEqual(["budget"]);
  });

  it("does not ask a computer-use or tool-use attempt to run tests", () => {
    expect(classifyFailure({ stopReason: "submitted", coding: false, records: turns() }).all).toEqual([
      "wrong_fix",
    ]);
  });
});
