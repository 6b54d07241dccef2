import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { suiteRan } from "./index.js";
import { parseMochaJson } from "./mocha-json.js";

/**
 * A real run: expressjs/cors's suite (mocha 10 --reporter json) with one line of lib/index.js broken,
 * and a test file that prints a line looking like the report's start before it.
 */
const FIXTURE = readFileSync(join(import.meta.dirname, "fixtures", "mocha-json.txt"), "utf8");

describe("mocha --reporter json", () => {
  it("reads every test of a real run by its full title, past console noise", () => {
    const statuses = parseMochaJson(FIXTURE);
    expect(statuses.size).toBe(49);
    expect([...statuses].filter(([, s]) => s === "FAILED").map(([id]) => id)).toEqual([
      "cors passing static options overrides defaults",
      "cors passing static options includes credentials if explicitly enabled",
    ]);
    expect(
      statuses.get("cors passing a function to build options handles error specified via callback"),
    ).toBe("PASSED");
    expect(suiteRan("mocha-json", FIXTURE)).toEqual({ ran: true, why: "mocha JSON report: 49 tests" });
  });

  it("a failed hook is an ERROR; pending tests are SKIPPED", () => {
    const t = (title: string, fullTitle: string) => ({
      title,
      fullTitle,
      file: "/workspace/test/a.js",
      err: {},
    });
    const log = JSON.stringify({
      stats: { tests: 2, passes: 0, failures: 1, pending: 1 },
      tests: [t("later", "db later")],
      passes: [],
      pending: [t("todo", "db todo")],
      failures: [t('"before all" hook for "later"', 'db "before all" hook for "later"')],
    });
    expect(Object.fromEntries(parseMochaJson(log))).toEqual({
      "db todo": "SKIPPED",
      'db "before all" hook for "later"': "ERROR",
    });
  });

  it("a run that crashed before its report, or counted no tests, proves nothing", () => {
    expect(suiteRan("mocha-json", "Error: Cannot find module '../lib/cjs/utils'\n").ran).toBe(false);
    const empty = JSON.stringify({
      stats: { tests: 0, passes: 0, failures: 0 },
      tests: [],
      passes: [],
      pending: [],
      failures: [],
    });
    expect(suiteRan("mocha-json", empty)).toEqual({
      ran: false,
      why: "mocha's JSON report counts no tests (stats.tests 0)",
    });
  });
});
