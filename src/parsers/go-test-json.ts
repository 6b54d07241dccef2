import { z } from "zod";
import { cleanLines, record, type SuiteRan, type TestStatusMap } from "./types.js";

/** One `go test -json` (test2json) event; newer Go adds build events keyed by ImportPath. */
const Event = z.object({
  Action: z.string(),
  Package: z.string().optional(),
  ImportPath: z.string().optional(),
  Test: z.string().optional(),
});

/** A package that did not build or set up: `FAIL\tpkg [build failed]` (printed as text, not JSON, before Go 1.24). */
const NOT_BUILT = /^FAIL\s+(\S+)\s+\[(build failed|setup failed)\]/;

interface GoRun {
  statuses: TestStatusMap;
  /** Packages with a final pass/fail: the runner reached their end. */
  finished: Map<string, "pass" | "fail">;
  notBuilt: Set<string>;
}

function readGoTestJson(log: string): GoRun {
  const statuses: TestStatusMap = new Map();
  const finished = new Map<string, "pass" | "fail">();
  const notBuilt = new Set<string>();
  const running = new Map<string, string>(); // test → package, until its pass/fail/skip
  const failedTests = new Set<string>(); // packages with a failed test
  for (const line of cleanLines(log)) {
    const plain = NOT_BUILT.exec(line);
    if (plain) notBuilt.add(plain[1] as string);
    if (!line.startsWith("{")) continue;
    let event: z.infer<typeof Event>;
    try {
      const parsed = Event.safeParse(JSON.parse(line));
      if (!parsed.success) continue;
      event = parsed.data;
    } catch {
      continue;
    }
    const pkg = event.Package ?? event.ImportPath?.replace(/ \[.*\]$/, "") ?? "";
    if (event.Action === "build-fail") notBuilt.add(pkg);
    if (event.Test === undefined) {
      if (event.Action === "pass" || event.Action === "fail") finished.set(pkg, event.Action);
      continue;
    }
    if (event.Action === "run") running.set(event.Test, pkg);
    const status = { pass: "PASSED", fail: "FAILED", skip: "SKIPPED" }[event.Action];
    if (status === undefined) continue;
    running.delete(event.Test);
    if (status === "FAILED") failedTests.add(pkg);
    record(statuses, event.Test, status as "PASSED" | "FAILED" | "SKIPPED");
  }
  // A test that started but never ended was cut short by a panic elsewhere, os.Exit or the timeout.
  for (const [test, pkg] of running) {
    record(statuses, test, "FAILED");
    failedTests.add(pkg);
  }
  // A package that failed with no failed test failed outside any test (TestMain, init, a build
  // error, a race report): the package itself is the ERROR.
  for (const [pkg, result] of finished) {
    if (result === "fail" && !failedTests.has(pkg)) record(statuses, pkg, "ERROR");
  }
  for (const pkg of notBuilt) record(statuses, pkg, "ERROR");
  return { statuses, finished, notBuilt };
}

/**
 * Parse `go test -json ./...` output. Ids are test names as Go prints them, subtests included
 * (`TestTable/two_words`: Go replaces spaces with underscores), without the package, as in SWE-bench's
 * go parser. A package that failed to build or failed outside its tests is recorded under its import
 * path as ERROR.
 */
export function parseGoTestJson(log: string): TestStatusMap {
  return readGoTestJson(log).statuses;
}

/** Each package that ran ends with a package-level pass/fail event (`ok`/`FAIL pkg` in text). */
export function goTestJsonSuiteRan(log: string): SuiteRan {
  const { finished, notBuilt } = readGoTestJson(log);
  if (finished.size === 0) {
    return notBuilt.size > 0
      ? { ran: false, why: `no package ran: build failed for ${[...notBuilt].join(", ")}` }
      : {
          ran: false,
          why: "no package-level pass/fail event from go test -json: the run crashed or was cut off",
        };
  }
  const failed = [...finished.values()].filter((r) => r === "fail").length;
  return {
    ran: true,
    why: `go test finished ${finished.size} package(s), ${failed} failed${notBuilt.size > 0 ? `, ${notBuilt.size} did not build` : ""}`,
  };
}
