import { describe, expect, it } from "vitest";
import { SKIP_MARK, strict } from "./needs.js";
import { skipSummary } from "./skip-summary.js";

describe("what a missing tool does to a run", () => {
  it("is strict only under CI", () => {
    expect(strict({ CI: "true" })).toBe(true);
    expect(strict({ CI: "1" })).toBe(true);
    expect(strict({})).toBe(false);
    expect(strict({ CI: "false" })).toBe(false);
  });

  it("ends a run with one line counting the marked skips by area and tool", () => {
    const test = (fullName: string) => ({ fullName });
    const module = (relativeModuleId: string, names: string[]) => ({
      relativeModuleId,
      children: { allTests: () => names.map(test)[Symbol.iterator]() },
    });
    const modules = [
      module("src/sandbox/bwrap/sandbox.test.ts", [
        `BwrapSandbox ${SKIP_MARK}bwrap: no user namespaces] > runs a command`,
        `BwrapSandbox ${SKIP_MARK}bwrap: no user namespaces] > kills a fork bomb`,
        "a test skipped for another reason",
      ]),
      module("test/e2e/cua-gate.test.ts", [`the gate ${SKIP_MARK}chromium: not installed] > refuses`]),
    ];
    expect(skipSummary(modules as never)).toBe(
      "skipped: 2 sandbox tests (no bwrap), 1 e2e tests (no chromium) — CI=true fails them instead",
    );
    expect(skipSummary([module("src/a/b.test.ts", ["plain skip"])] as never)).toBeUndefined();
  });
});
