import { describe, expect, it } from "vitest";
import type { InstanceReport } from "../swebench/index.js";
import { networkFailure } from "./grade.js";
import { causesInWords, readinessOf, readinessTable, unavailableCause } from "./readiness.js";
import type { Validation } from "./validate.js";

const report = (outcome: InstanceReport["outcome"], detail: string, resolved = false): InstanceReport =>
  ({ outcome, detail, resolved }) as InstanceReport;
const validation = (gold: InstanceReport, ok: boolean): Validation => ({
  instance_id: "acme__x-1",
  ok,
  flaky: false,
  problems: ok ? [] : ["gold patch does not resolve: x"],
  gold: [gold],
  base: report("graded", "1 expected test failed: t"),
  runs: { gold: [], base: { report: gold, testOutput: "", evalScript: "" } },
});

describe("readiness", () => {
  it("names the cause of an unavailable row from its reason", () => {
    expect(unavailableCause("repository django/django is missing: it is not in /s")).toBe("repository");
    expect(
      unavailableCause(
        "repository /s/astropy+astropy/repo cannot give commit 5f74: objects it needs are missing",
      ),
    ).toBe("repository");
    expect(unavailableCause('no recipe for sympy/sympy version "0.1": …')).toBe("recipe");
    expect(unavailableCause("interpreter Python 3.5 is not installed here: …")).toBe("interpreter");
    expect(unavailableCause("pin attrs==23.1.0 is not in the package indexes: …")).toBe("pin");
    expect(unavailableCause('malformed row: line 3: "FAIL_TO_PASS": …')).toBe("row");
    expect(unavailableCause("environment 1234 did not build: install line 3 of 4 failed")).toBe("build");
  });

  it("reads a validation: ready, invalid, flaky, unavailable (environment), unavailable (network)", () => {
    expect(readinessOf("a/b", validation(report("graded", "resolved", true), true)).state).toBe("ready");
    // sympy__sympy-13146 under five gold runs: the verdict was a draw of the hash seed.
    const drawn = { ...validation(report("graded", "1 expected test failed: t"), false), flaky: true };
    expect(readinessOf("sympy/sympy", drawn)).toMatchObject({ state: "flaky", problems: drawn.problems });
    expect(readinessOf("a/b", validation(report("graded", "1 expected test failed: t"), false)).state).toBe(
      "invalid",
    );
    expect(
      readinessOf(
        "a/b",
        validation(report("environment_unavailable", "pin x==1 is not in the package indexes"), false),
      ),
    ).toMatchObject({ state: "unavailable", cause: "pin" });
    expect(
      readinessOf(
        "a/b",
        validation(
          report(
            "graded",
            "2 expected tests failed: t — needs network: the tests tried to reach it and the sandbox has none (x)",
          ),
          false,
        ),
      ),
    ).toMatchObject({ state: "unavailable", cause: "network" });
  });

  it("counts per repository", () => {
    const rows = readinessTable([
      { instance_id: "1", repo: "a/b", state: "ready" },
      { instance_id: "2", repo: "a/b", state: "unavailable", cause: "pin", reason: "" },
      { instance_id: "3", repo: "c/d", state: "unavailable", cause: "repository", reason: "" },
      { instance_id: "4", repo: "a/b", state: "unavailable", cause: "pin", reason: "" },
      { instance_id: "5", repo: "c/d", state: "flaky", problems: [] },
      { instance_id: "6", repo: "c/d", state: "invalid", problems: [] },
    ]);
    expect(rows).toEqual([
      { repo: "a/b", rows: 3, ready: 1, invalid: 0, flaky: 0, unavailable: { pin: 2 } },
      { repo: "c/d", rows: 3, ready: 0, invalid: 1, flaky: 1, unavailable: { repository: 1 } },
    ]);
    expect(causesInWords({ pin: 2, interpreter: 1 })).toBe("2 pin, 1 interpreter");
  });

  it("recognises tests that reached for the network", () => {
    expect(
      networkFailure(
        "requests.exceptions.ConnectionError: HTTPConnectionPool(host='httpbin.org', port=80): Max retries exceeded (Caused by NewConnectionError('<urllib3.connection.HTTPConnection object at 0x7f>: Failed to establish a new connection: [Errno -3] Temporary failure in name resolution'))",
      ),
    ).toMatch(/^Failed to establish a new connection/);
    expect(networkFailure("AssertionError: 1 != 2")).toBeUndefined();
  });
});
