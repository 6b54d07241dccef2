import { describe, expect, it } from "vitest";
import { captureNamed, expectCapture, readFixture } from "../../test/parsers/capture-expect.js";
import { parseGoTestJson } from "./go-test-json.js";
import { suiteRan } from "./index.js";

const capture = captureNamed("go-test-json");

describe("go-test-json on go test -json ./...", () => {
  it("parses the committed fixture", () => expectCapture(expect, capture, readFixture("go-test-json")));
});

describe("go logs that did not finish", () => {
  it("fails a test that started and never ended, and rejects the run", () => {
    const log = [
      '{"Action":"run","Package":"m/p","Test":"TestA"}',
      '{"Action":"pass","Package":"m/p","Test":"TestA","Elapsed":0}',
      '{"Action":"run","Package":"m/p","Test":"TestHangs"}',
    ].join("\n");
    expect(Object.fromEntries(parseGoTestJson(log))).toEqual({ TestA: "PASSED", TestHangs: "FAILED" });
    expect(suiteRan("go-test-json", log)).toMatchObject({ ran: false });
  });

  it("says no package ran when every package failed to build", () => {
    const log = "# m/p\np/p.go:3:1: syntax error\nFAIL\tm/p [build failed]\n";
    expect(parseGoTestJson(log).get("m/p")).toBe("ERROR");
    expect(suiteRan("go-test-json", log)).toMatchObject({ ran: false });
  });
});
