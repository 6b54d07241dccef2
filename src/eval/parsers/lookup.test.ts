import { describe, expect, it } from "vitest";
import { lookupStatus } from "./lookup.js";
import { parsePytest } from "./pytest.js";
import type { TestStatusMap } from "./types.js";

const map = (entries: Record<string, string>): TestStatusMap =>
  new Map(Object.entries(entries)) as TestStatusMap;

describe("lookupStatus", () => {
  it("matches exactly first", () => {
    const statuses = map({ "t.py::test_x[a b]": "PASSED", "t.py::test_x[a": "FAILED" });
    expect(lookupStatus(statuses, "t.py::test_x[a b]")).toBe("PASSED");
  });

  it("reads a SWE-bench id cut at a space as the worst of the whole ids it stands for", () => {
    // From a real -rA summary: the dataset would list `test_param[a` for `test_param[a b]`.
    const statuses = parsePytest(
      "PASSED t.py::test_p[a b]\nFAILED t.py::test_p[a c] - boom\nPASSED t.py::test_p[1]\n",
    );
    expect(lookupStatus(statuses, "t.py::test_p[a")).toBe("FAILED");
    const allPass = map({ "t.py::test_p[a b]": "PASSED", "t.py::test_p[a c]": "XFAIL" });
    expect(lookupStatus(allPass, "t.py::test_p[a")).toBe("XFAIL");
    // A cut id never matches an id that merely starts the same way without a space at the cut.
    expect(lookupStatus(map({ "t.py::test_p[ab]": "PASSED" }), "t.py::test_p[a")).toBeUndefined();
  });

  it("credits a cut log entry's pass to one expected id, never to two", () => {
    const statuses = map({ "t.py::test_p[a": "PASSED" }); // a log parsed by a whitespace-splitting tool
    const one = ["t.py::test_p[a b]"];
    expect(lookupStatus(statuses, "t.py::test_p[a b]", one)).toBe("PASSED");
    const two = ["t.py::test_p[a b]", "t.py::test_p[a c]"];
    expect(lookupStatus(statuses, "t.py::test_p[a b]", two)).toBeUndefined();
    expect(lookupStatus(statuses, "t.py::test_p[a c]", two)).toBeUndefined();
    // Without the expected list nobody can tell, so the pass is not credited.
    expect(lookupStatus(statuses, "t.py::test_p[a b]")).toBeUndefined();
  });

  it("hands a cut log entry's failure to every expected id that cuts to it", () => {
    const statuses = map({ "t.py::test_p[a": "FAILED" });
    expect(lookupStatus(statuses, "t.py::test_p[a b]", ["t.py::test_p[a b]", "t.py::test_p[a c]"])).toBe(
      "FAILED",
    );
  });

  it("gives each test of a file that failed to collect the file's ERROR", () => {
    const statuses = parsePytest("ERROR tests/test_new.py\nPASSED tests/test_old.py::test_a\n");
    expect(lookupStatus(statuses, "tests/test_new.py::test_fix")).toBe("ERROR");
    expect(lookupStatus(statuses, "tests/test_old.py::test_b")).toBeUndefined();
  });

  it("matches node, jest, go and cargo ids exactly only: a suite's status is not its tests'", () => {
    const statuses = map({ LruCache: "PASSED", "TestTable/one": "PASSED" });
    expect(lookupStatus(statuses, "LruCache > stores and returns values", ["LruCache > x"])).toBeUndefined();
    expect(lookupStatus(statuses, "TestTable/two_words")).toBeUndefined();
  });
});
