import { describe, expect, it } from "vitest";
import { captureNamed, expectCapture, liveTitle, readFixture, runCapture } from "./capture-expect.js";
import { suiteRan } from "./index.js";
import { parsePytest } from "./pytest.js";

for (const name of ["pytest-rA", "pytest-v", "pytest-interrupted"]) {
  const capture = captureNamed(name);
  describe(`pytest: ${name}`, () => {
    it("parses the committed fixture", () => expectCapture(expect, capture, readFixture(name)));
    it.skipIf(capture.missing() !== null)(liveTitle(capture), () =>
      expectCapture(expect, capture, runCapture(capture)),
    );
  });
}

describe("parsePytest on lines real runs rarely print", () => {
  it("keeps the id whole when the message holds ' - ' and brackets", () => {
    const log = "FAILED tests/t.py::test_x[a - b] - ValueError: x - y [1]\n";
    expect([...parsePytest(log)]).toEqual([["tests/t.py::test_x[a - b]", "FAILED"]]);
  });

  it("reads a verbose line with a skip reason and a teardown error after a pass", () => {
    const log = [
      "t.py::test_a SKIPPED (needs a GPU)                    [ 50%]",
      "t.py::test_b PASSED                                   [100%]",
      "t.py::test_b ERROR                                    [100%]",
    ].join("\n");
    expect(Object.fromEntries(parsePytest(log))).toEqual({
      "t.py::test_a": "SKIPPED",
      "t.py::test_b": "ERROR",
    });
  });

  it("finds nothing, and no finished suite, in a crash", () => {
    const log = "ImportError while loading conftest '/repo/conftest.py'.\n";
    expect(parsePytest(log).size).toBe(0);
    expect(suiteRan("pytest", log).ran).toBe(false);
  });

  it("does not trust a run stopped by Ctrl-C or a timeout, though pytest still prints its counts", () => {
    const log =
      "!!!!!!!!!!!!!! KeyboardInterrupt !!!!!!!!!!!!!!\n============ 3 passed in 61.20s (0:01:01) ============\n";
    expect(suiteRan("pytest", log)).toMatchObject({ ran: false });
    expect(suiteRan("pytest", "3 passed, 1 warning in 0.12s\n")).toMatchObject({ ran: true });
    expect(suiteRan("pytest", "=== no tests ran in 0.01s ===\n")).toMatchObject({ ran: false });
  });
});
