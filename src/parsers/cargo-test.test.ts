import { describe, expect, it } from "vitest";
import { captureNamed, expectCapture, readFixture } from "../../test/parsers/capture-expect.js";
import { parseCargoTest } from "./cargo-test.js";
import { suiteRan } from "./index.js";

for (const name of ["cargo-test", "cargo-compile-error"]) {
  const capture = captureNamed(name);
  describe(`cargo test: ${name}`, () => {
    it("parses the committed fixture", () => expectCapture(expect, capture, readFixture(name)));
  });
}

describe("cargo output interleaved with panics (--nocapture, stderr merged)", () => {
  // The shape libtest prints when a panicking thread writes while another test reports.
  const log = [
    "running 4 tests",
    "test tests::a ... ok",
    "test tests::b ... thread 'tests::c' (7) panicked at src/lib.rs:9:5:",
    "boom",
    "ok",
    "noise test tests::d - should panic ... ok",
    "",
    "failures:",
    "",
    "failures:",
    "    tests::c",
    "",
    "test result: FAILED. 3 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s",
  ].join("\n");

  it("finds each status, the one pushed to the next line and the one only in the recap", () => {
    expect(Object.fromEntries(parseCargoTest(log))).toEqual({
      "tests::a": "PASSED",
      "tests::b": "PASSED",
      "tests::c": "FAILED",
      "tests::d": "PASSED",
    });
    expect(suiteRan("cargo-test", log)).toMatchObject({ ran: true });
  });

  it("rejects a run where a test binary died before its test result line", () => {
    const crashed = `${log}\n\nrunning 1 test\ntest it_works ... error: test failed, to rerun pass \`--test it\`\n`;
    expect(suiteRan("cargo-test", crashed)).toMatchObject({ ran: false });
  });
});
