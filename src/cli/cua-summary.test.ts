import { describe, expect, it } from "vitest";
import { TaskFileError } from "../cua/index.js";
import { type CuaRow, rowOfBrokenFile, rowOfFailure, summaryTable } from "./cua-summary.js";

const ran = (task: string, resolved: boolean, wallS: number, browserS: number): CuaRow => ({
  task,
  observe: "a11y",
  resolved,
  reward: resolved ? 1 : -1,
  stop: "submitted",
  detail: "done",
  steps: 2,
  tokensIn: 1234,
  blocked: 0,
  wallS,
  browserS,
});

describe("the cua summary table", () => {
  it("counts what started and was graded, lists what did not run with why, and times the episodes", () => {
    const rows = [
      ran("miniwob-click-button", true, 3.2, 2.1),
      ran("miniwob-click-link", false, 1.1, 0.02),
      ran("miniwob-enter-date", true, 1.3, 0.03),
      rowOfFailure("miniwob-objinstr", "a11y", "task_error", "objinstr.yaml: instruction_js: gave {…}"),
      rowOfBrokenFile(
        new TaskFileError("folder/bad.yaml", "grade.js", "expected a string", { line: 4, column: 13 }),
      ),
    ];
    const text = summaryTable(rows);
    expect(text).toMatch(/^task +observe +resolved +reward +stop +steps +tokens in +blocked +wall s$/m);
    expect(text).toMatch(/^miniwob-click-button +a11y +yes +1 +submitted +2 +1,234 +0 +3\.2$/m);
    expect(text).toMatch(/^folder\/bad\.yaml +- +NO +- +task_error +0 +0 +0 +-$/m);
    expect(text).toContain("2/5 resolved; 3 of 5 started and were graded, 2 task_error");
    // Timed over the episodes that ran: the median, and the part spent getting a browser.
    expect(text).toContain("time per episode: median 1.30 s, of which 0.03 s getting a browser; 6 s in all");
    expect(text).toContain(
      "did not run:\n  miniwob-objinstr (task_error): objinstr.yaml: instruction_js: gave {…}",
    );
    expect(text).toContain(
      "  folder/bad.yaml (task_error): folder/bad.yaml:4:13: grade.js: expected a string",
    );
  });
});
