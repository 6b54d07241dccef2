import { describe, expect, it } from "vitest";
import {
  captureNamed,
  expectCapture,
  liveTitle,
  readFixture,
  runCapture,
} from "../../test/parsers/capture-expect.js";
import { suiteRan } from "./index.js";
import { parseNodeSpec } from "./node-spec.js";
import { parseNodeTap } from "./node-tap.js";

for (const name of ["node-tap", "node-spec"]) {
  const capture = captureNamed(name);
  describe(`node --test: ${name}`, () => {
    it("parses the committed fixture", () => expectCapture(expect, capture, readFixture(name)));
    it(liveTitle(capture), () => expectCapture(expect, capture, runCapture(capture)));
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
