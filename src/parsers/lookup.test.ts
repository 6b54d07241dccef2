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
  });

  it("resolves an id cut mid-parameter by prefix, as SWE-bench v5 does", () => {
    // The shape of the 676 truncated ids in SWE-bench Verified: cut inside a parameter, not at a space.
    const statuses = parsePytest(
      [
        "PASSED u.py::test_ogip[log(photon / m**2 s)]",
        "PASSED u.py::test_ogip[log(electron)]",
        "PASSED u.py::test_p[ab]",
      ].join("\n"),
    );
    expect(lookupStatus(statuses, "u.py::test_ogip[log(pho")).toBe("PASSED");
    expect(lookupStatus(statuses, "u.py::test_ogip[log(")).toBe("PASSED");
    expect(lookupStatus(statuses, "u.py::test_p[a")).toBe("PASSED");
    expect(lookupStatus(statuses, "u.py::test_ogip[sqrt(")).toBeUndefined();
  });

  it("passes a truncated id only if every candidate passes; the worst status wins", () => {
    const candidates = (...statuses: string[]) =>
      map(Object.fromEntries(statuses.map((s, i) => [`t.py::test_x[args1-No${i}]`, s])));
    expect(lookupStatus(candidates("PASSED", "XFAIL"), "t.py::test_x[args1-No")).toBe("XFAIL");
    expect(lookupStatus(candidates("PASSED", "FAILED"), "t.py::test_x[args1-No")).toBe("FAILED");
    expect(lookupStatus(candidates("SKIPPED", "ERROR"), "t.py::test_x[args1-No")).toBe("ERROR");
    expect(lookupStatus(candidates("SKIPPED", "SKIPPED"), "t.py::test_x[args1-No")).toBe("SKIPPED");
    // Some ran and passed, some were skipped: SWE-bench calls the id ambiguous, and so do we (it counts
    // as missing), or a PASS_TO_PASS id would be kept on the strength of its skipped candidates.
    expect(lookupStatus(candidates("PASSED", "SKIPPED"), "t.py::test_x[args1-No")).toBeUndefined();
  });

  it("keeps exact matching for a balanced id, a surplus ], and names that are not pytest ids", () => {
    const statuses = map({
      "t.py::test_x[case-1-extended]": "PASSED",
      "handles foo] gracefully and more": "PASSED",
      "handles [foo bar]": "PASSED",
    });
    expect(lookupStatus(statuses, "t.py::test_x[case-1]")).toBeUndefined();
    expect(lookupStatus(statuses, "handles foo] gracefully")).toBeUndefined();
    expect(lookupStatus(statuses, "handles [foo")).toBeUndefined();
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
