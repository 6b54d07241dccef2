import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { needing } from "../testing/needs.js";
import {
  END_TEST_OUTPUT,
  gradeSwebenchLog,
  parseLogPytest,
  parseTestExitCode,
  START_TEST_OUTPUT,
  TESTS_TIMEOUT,
} from "./swebench-rules.js";
import { pyInt, pySplit, pyUniversalNewlines } from "./swebench-rules-python.js";

const wrap = (body: string, code: number | null) =>
  `${START_TEST_OUTPUT}\n${body}\n${END_TEST_OUTPUT}\n${code === null ? "" : `>>>>> Test Exit Code: ${code}\n`}`;

describe("gradeSwebenchLog", () => {
  const tests = { FAIL_TO_PASS: ["t.py::test_a"], PASS_TO_PASS: ["t.py::test_b"] };

  it("resolves a clean log and says nothing against it", () => {
    const verdict = gradeSwebenchLog(wrap("PASSED t.py::test_a\nPASSED t.py::test_b", 0), tests, "pytest");
    expect(verdict).toMatchObject({ found: true, why: null, resolution: "RESOLVED_FULL", resolved: true });
  });

  it("names the check that voided a log", () => {
    const why = (log: string) => gradeSwebenchLog(log, tests, "pytest").why;
    expect(why(`${wrap("PASSED t.py::test_a", 0)}${TESTS_TIMEOUT}\n`)).toMatch(/">>>>> Tests Timed Out"/);
    expect(why(`${START_TEST_OUTPUT}\nPASSED t.py::test_a\n`)).toMatch(
      /lacks the marker ">>>>> End Test Output"/,
    );
    expect(why(wrap("collected 0 items", 5))).toMatch(/no test results.*SUITE_RAN/);
    expect(why(wrap("PASSED t.py::test_a", 1))).toMatch(/exited with 1 .* no FAILED or ERROR/);
  });

  it("reads node's TAP with acilab's parser and grades it by SWE-bench's rules", () => {
    const tap = readFileSync(join(import.meta.dirname, "..", "parsers", "fixtures", "node-tap.txt"), "utf8");
    const node = {
      FAIL_TO_PASS: ["compare > orders versions"],
      PASS_TO_PASS: ["compare > prerelease > later"],
    };
    const verdict = gradeSwebenchLog(wrap(tap, 1), node, "node-tap");
    expect(verdict.statusMap.get("compare > breaks # sometimes")).toBe("FAILED");
    expect(verdict).toMatchObject({ found: true, resolved: true }); // a skipped PASS_TO_PASS test is kept
    // Nothing parsed, but TAP's own count shows the suite ran: under fail_only that resolves.
    const empty = gradeSwebenchLog(wrap("# tests 3\n# pass 3", 0), node, "node-tap", "fail_only");
    expect(empty).toMatchObject({ found: true, resolved: true });
  });
});

describe("the pytest parser port", () => {
  it("keeps SWE-bench's raw statuses, cut ids and first positions", () => {
    const log =
      "PASSED t.py::a\nFAILED t.py::b[x - y] - boom\nERROR: t.py::c\nPASSED t.py::b[x\n  PASSED t.py::d";
    expect([...parseLogPytest(log)]).toEqual([
      ["t.py::a", "PASSED"],
      ["t.py::b[x", "PASSED"],
      ["t.py::c", "ERROR:"],
    ]);
  });
});

describe("Python semantics", () => {
  it("splits on exactly the characters Python's str.split() does", () => {
    const splits: number[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      if (pySplit(`a${String.fromCodePoint(cp)}b`).length === 2) splits.push(cp);
    }
    // From python3: [c for c in range(0x110000) if chr(c).isspace()]
    const python = [
      0x9, 0xa, 0xb, 0xc, 0xd, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002,
      0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
    ];
    expect(splits).toEqual(python);
    expect(pySplit("  PASSED \t t.py::a  ")).toEqual(["PASSED", "t.py::a"]);
  });

  const python3 = spawnSync("python3", ["-c", "print(1)"]).status === 0;
  needing("python3", !python3 && "python3 is not on PATH").it(
    "matches a live python3 on int() of Unicode digits and on universal newlines",
    () => {
      const samples = ["0", "-0", "137", "\u0661\u0663\u0667", "\u{1d7d9}\u{1d7d8}", "\u0e52"];
      // The text goes through a file, as SWE-bench reads a log: written byte for byte, read in text mode.
      const script = [
        "import json, os, sys, tempfile",
        "d = json.load(sys.stdin)",
        "with tempfile.NamedTemporaryFile('w', newline='', encoding='utf-8', delete=False) as f: f.write(d['text'])",
        "text = open(f.name, encoding='utf-8').read()",
        "os.unlink(f.name)",
        "print(json.dumps([[int(s) for s in d['ints']], text]))",
      ].join("\n");
      const text = "a\r\nb\rc\n\rd";
      const run = spawnSync("python3", ["-c", script], {
        input: JSON.stringify({ ints: samples, text }),
        encoding: "utf8",
      });
      expect(run.status, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout)).toEqual([
        samples.map(pyInt).map((n) => n + 0),
        pyUniversalNewlines(text),
      ]);
    },
  );

  it("reads the first exit code in the log, whoever printed it", () => {
    expect(parseTestExitCode(">>>>> Test Exit Code: 0\n>>>>> Test Exit Code: 1\n")).toBe(0);
    expect(parseTestExitCode(">>>>> Test Exit Code: \u0661\u0663\u0667")).toBe(137);
    expect(parseTestExitCode(">>>>> Test Exit Code: x")).toBeNull();
  });
});
