import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { gradeSwebenchLog } from "../swebench/index.js";
import { LOG_PARSERS, type LogParserName, lookupStatus, suiteRan } from "./index.js";

/**
 * SWE-bench's own readers (5.0.2), recorded on these fixtures by scripts/swebench-parity/parsers.py:
 * acilab's readers must give the same status map on the same log, and the exact ports behind
 * `--rules swebench` the very same map, order aside. The sympy and pytest fixtures are real runs here
 * (bin/test of sympy 1.7 under Python 3.9; pytest 9 on a project with every outcome); the Django
 * fixture is written from runtests.py's documented output (its repository is too large to bring here).
 */
const FIXTURES = join(import.meta.dirname, "fixtures");
const recorded = JSON.parse(readFileSync(join(FIXTURES, "swebench-readers.json"), "utf8")) as {
  readers: Record<string, Record<string, Array<[string, string]>>>;
};

const sorted = (entries: Iterable<[string, string]>) => [...entries].sort(([a], [b]) => a.localeCompare(b));

for (const [fixture, readers] of Object.entries(recorded.readers)) {
  const log = readFileSync(join(FIXTURES, fixture), "utf8");
  describe(fixture, () => {
    for (const [name, theirs] of Object.entries(readers)) {
      const parser = name as LogParserName;
      it(`${parser}: the --rules swebench reader gives SWE-bench's map exactly`, () => {
        const ours = gradeSwebenchLog(
          `>>>>> Start Test Output\n${log}\n>>>>> End Test Output\n`,
          { FAIL_TO_PASS: [], PASS_TO_PASS: [] },
          parser,
        ).statusMap;
        expect(sorted(ours)).toEqual(sorted(theirs));
      });
      it(`${parser}: acilab's reader gives SWE-bench's status for every test SWE-bench reads`, () => {
        const ours = LOG_PARSERS[parser](log);
        if (parser === "sympy" || parser === "django") {
          expect(sorted([...ours].filter(([id]) => theirs.some(([t]) => t === id)))).toEqual(sorted(theirs));
          const extra = [...ours.keys()].filter((id) => !theirs.some(([t]) => t === id));
          // Only the tests bin/test writes on a file's closing line (`test_x ok   [OK]`), which SWE-bench misses.
          const closing = [...log.matchAll(/^(test_\w+) \S+\s+\[(?:OK|FAIL)\]$/gm)].map((m) => m[1]);
          expect(extra.sort()).toEqual(parser === "sympy" ? closing.sort() : []);
          return;
        }
        // pytest's forms: acilab keeps ids whole (`test_x[a b]`), SWE-bench cuts them at a space
        // (`test_x[a`); lookupStatus is what matches its ids against ours, so that is what is compared.
        // (SWE-bench 5's pytest-v2 reader keys ERROR and XFAIL lines with their message, `id - why`:
        // no dataset lists such an id.)
        const ids = theirs.map(([id]) => id);
        for (const [id, status] of theirs) {
          if (parser === "pytest-v2" && id.includes(" - ")) continue;
          expect([id, lookupStatus(ours, id, ids)]).toEqual([id, status]);
        }
        // Nothing more is read, except skips and expected failures seen by id on `-v` lines (SWE-bench
        // reads no `-v` line there, and its summary names no skipped test): pytest.ts keeps those.
        for (const [id, status] of ours)
          if (status !== "SKIPPED" && status !== "XFAIL")
            expect(ids.some((t) => t === id || t === id.split(/\s/)[0] || t.startsWith(`${id} - `))).toBe(
              true,
            );
      });
    }
  });
}

describe("the runners' own ends", () => {
  it("sympy: the finished line, with or without its rules (a long summary wraps)", () => {
    expect(suiteRan("sympy", readFileSync(join(FIXTURES, "sympy-bin-test.txt"), "utf8")).ran).toBe(true);
    expect(
      suiteRan("sympy", readFileSync(join(FIXTURES, "sympy-bin-test-errors.txt"), "utf8")),
    ).toMatchObject({
      ran: true,
    });
    expect(suiteRan("sympy", "test_a ok\ntest_b ok\n").ran).toBe(false);
  });

  it("django: Ran N tests then OK or FAILED", () => {
    expect(suiteRan("django", readFileSync(join(FIXTURES, "django-runtests.txt"), "utf8"))).toMatchObject({
      ran: true,
      why: expect.stringContaining("FAILED (failures=1"),
    });
    expect(suiteRan("django", "test_a (x.T) ... ok\n").ran).toBe(false);
    expect(suiteRan("django", "Ran 2 tests in 0.1s\n").ran).toBe(false);
  });
});
