import { describe, expect, it } from "vitest";
import { captureNamed, expectCapture, readFixture } from "../../test/parsers/capture-expect.js";
import { suiteRan } from "./index.js";
import { parseJestJson } from "./jest-json.js";

const capture = captureNamed("vitest-json");

describe("jest-json on vitest --reporter=json", () => {
  it("parses the committed fixture", () => expectCapture(expect, capture, readFixture("vitest-json")));
});

/** jest --json's shape, as jest writes it (key order differs from vitest's; fullName is optional). */
const JEST_REPORT = JSON.stringify({
  numFailedTestSuites: 0,
  numTotalTests: 2,
  success: true,
  testResults: [
    {
      name: "/repo/a.test.js",
      status: "passed",
      message: "",
      assertionResults: [
        { ancestorTitles: ["parse"], title: 'reads {braces} and "quotes"', status: "passed" },
        { ancestorTitles: [], title: "later", status: "pending" },
      ],
    },
  ],
});

describe("finding the report in a noisy log", () => {
  it("reads a jest report between npm's banner and a trailing line", () => {
    const log = `> pkg@1.0.0 test\n> jest --json\n\nconsole.log { not: json\n${JEST_REPORT}\nDone in 2.1s.\n`;
    expect(Object.fromEntries(parseJestJson(log))).toEqual({
      'parse > reads {braces} and "quotes"': "PASSED",
      later: "SKIPPED",
    });
    expect(suiteRan("jest-json", log)).toMatchObject({ ran: true });
  });

  it("does not accept a log whose report was cut off", () => {
    const cut = readFixture("vitest-json").slice(0, 2000);
    expect(parseJestJson(cut).size).toBe(0);
    expect(suiteRan("jest-json", cut)).toMatchObject({ ran: false });
  });
});
