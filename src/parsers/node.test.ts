import { describe, expect, it } from "vitest";
import { captureNamed, expectCapture, readFixture } from "../../test/parsers/capture-expect.js";
import { suiteRan } from "./index.js";
import { parseNodeSpec } from "./node-spec.js";
import { parseNodeTap } from "./node-tap.js";

for (const name of ["node-tap", "node-spec"]) {
  const capture = captureNamed(name);
  describe(`node --test: ${name}`, () => {
    it("parses the committed fixture", () => expectCapture(expect, capture, readFixture(name)));
  });
}

describe("the two node reporters agree", () => {
  it("gives the same ids and statuses for the same run", () => {
    const tap = parseNodeTap(readFixture("node-tap"));
    const spec = parseNodeSpec(readFixture("node-spec"));
    expect(Object.fromEntries(spec)).toEqual(Object.fromEntries(tap));
  });
});

describe("node logs that did not finish", () => {
  it("rejects a TAP stream cut off before its summary", () => {
    const cut = readFixture("node-tap").split("\n# tests")[0] as string;
    expect(parseNodeTap(cut).get("top level")).toBe("PASSED");
    expect(suiteRan("node-tap", cut)).toMatchObject({ ran: false });
  });

  it("rejects a spec log without its ℹ tests line", () => {
    expect(suiteRan("node-spec", "✔ forged (1ms)\n")).toMatchObject({ ran: false });
  });
});

describe("tap (node-tap 18+) through the node-tap parser", () => {
  // The shape `tap --reporter=tap` prints (isaacs/minimatch's suite, two files, one test failing).
  const LOG = `TAP version 14
# Subtest: test/basic.js
    # Subtest: makeRe
        ok 1 - should match pattern
        1..1
    ok 1 - makeRe # time=0.3ms
    1..1
ok 1 - test/basic.js # time=4379.2ms

# Subtest: test/defaults.js
    not ok 1 - defaults keep their options
    1..1
not ok 2 - test/defaults.js # time=812.0ms

1..2
# { total: 2, pass: 1, fail: 1 }
# time=5191.3ms
`;
  it("names tests by file and subtest, and takes tap's closing summary as the end of the run", () => {
    const statuses = parseNodeTap(LOG);
    expect(statuses.get("test/basic.js > makeRe")).toBe("PASSED");
    expect(statuses.get("test/defaults.js > defaults keep their options")).toBe("FAILED");
    expect(suiteRan("node-tap", LOG)).toEqual({ ran: true, why: "TAP summary: # { total: 2" });
  });
});

describe("tap 14 and 16 (`tap --reporter=tap --jobs=1`) through the node-tap parser", () => {
  // Captured from node-semver's own tap versions on two small files, one assertion failing.
  for (const name of ["tap14", "tap16"])
    it(`${name}: names tests by file, and takes the closing top-level plan as the end of the run`, () => {
      const log = readFixture(name);
      expect(Object.fromEntries(parseNodeTap(log))).toMatchObject({
        "test/basic.js > parse > adds": "PASSED",
        "test/basic.js > parse > compares strings": "FAILED",
        "test/other.js > works > fine": "PASSED",
      });
      expect(suiteRan("node-tap", log)).toEqual({
        ran: true,
        why: "TAP plan at the end: 1..2, 2 top-level results",
      });
      // Cut before the closing plan, or with a file's result missing: not a finished run.
      expect(suiteRan("node-tap", log.split("\n1..2\n")[0] as string).ran).toBe(false);
      expect(suiteRan("node-tap", log.split("\n# time=").slice(0, -1).join("\n# time=")).ran).toBe(false);
      expect(suiteRan("node-tap", log.replace(/^ok 2 - test\/other\.js.*$/m, "")).ran).toBe(false);
    });
});
