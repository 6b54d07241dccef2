import { describe, expect, it } from "vitest";
import { collectionError, importCause, namesTheClock, unusableRun } from "./assemble.js";

const run = (log: string, stderr = "") => ({
  statuses: new Map(),
  log,
  stderr,
  exitCode: 2,
  timedOut: false,
  durationMs: 1,
});

describe("why a test run gives nothing to use", () => {
  it("names the test module that does not import and the exception", () => {
    const log = [
      "==================================== ERRORS ====================================",
      "___________________ ERROR collecting tests/test_dicttoolz.py ___________________",
      "tests/test_dicttoolz.py:2: in <module>",
      "    from collections import Mapping",
      "E   ImportError: cannot import name 'Mapping' from 'collections'",
      "!!!!!!!!!!!!!!!!!!!! Interrupted: 1 error during collection !!!!!!!!!!!!!!!!!!!!",
    ].join("\n");
    expect(collectionError(run(log))).toBe(
      "its test module tests/test_dicttoolz.py does not import: ImportError: cannot import name 'Mapping' from 'collections'",
    );
    expect(unusableRun(run(log))).toBe(collectionError(run(log)));
  });

  it("reads a coloured log as text", () => {
    const log =
      "\x1b[31m_____ ERROR collecting tests/test_x.py _____\x1b[0m\nE   ModuleNotFoundError: No module named 'pkg._version'\x1b[0m\n";
    expect(collectionError(run(log))).toBe(
      "its test module tests/test_x.py does not import: ModuleNotFoundError: No module named 'pkg._version'",
    );
  });

  it("names a conftest.py that does not import", () => {
    const stderr =
      "ImportError while loading conftest '/workspace/tests/conftest.py'.\ntests/conftest.py:3: in <module>\n    import simplejson\nE   ModuleNotFoundError: No module named 'simplejson'\n";
    expect(collectionError(run("", stderr))).toBe(
      "its test module tests/conftest.py does not import: ModuleNotFoundError: No module named 'simplejson'",
    );
  });

  it("shows stderr when stdout is empty: a usage error is not 'no output'", () => {
    const why = unusableRun(
      run("", "ERROR: usage: pytest [options]\npytest: error: unrecognized arguments: --cov\n"),
    );
    expect(why).toContain("unrecognized arguments: --cov");
  });

  it("tells a fix that adds the imported name from old code this interpreter cannot run", () => {
    const adds = "+def peekn(n, seq):\n+    return seq[:n]\n";
    expect(importCause("does not import: ImportError: cannot import name 'peekn' from 'toolz'", adds)).toBe(
      " — the fix adds peekn: a new API rather than a bug fix",
    );
    expect(
      importCause("does not import: SyntaxError: Generator expression must be parenthesized", adds),
    ).toMatch(/the code without the fix does not run here/);
    expect(importCause("cannot import name 'Mapping' from 'collections'", adds)).toMatch(/does not run here/);
    expect(importCause("does not import: ModuleNotFoundError: No module named 'unidecode'", adds)).toBe(
      " — unidecode is not installed in the environment it was tested in (not a dependency there, or not in these package indexes: see its build.log)",
    );
    const gone = "FileNotFoundError: [Errno 2] No such file or directory: '/workspace/tests/toml-test/tests'";
    expect(importCause(gone, adds, ["tests/toml-test"])).toBe(
      " — tests/toml-test is a git submodule, and mirroring works on a clone without submodules' files",
    );
  });
});

describe("namesTheClock", () => {
  it("spots ids made from the time they ran at, in marshmallow's formats, and nothing else", () => {
    const at = new Date(Date.UTC(2026, 11, 2, 6, 30, 42));
    const id = (p: string) =>
      `tests/test_deserialization.py::TestX::test_invalid_datetime_deserialization[${p}]`;
    expect(namesTheClock(id("06:30:42 2026-12-02"), [at])).toBe(true);
    expect(namesTheClock(id("12-02-2026 06:30:42"), [at])).toBe(true);
    expect(namesTheClock(id("not-a-date"), [at])).toBe(false);
    expect(namesTheClock(id("2021-01-01T06:00"), [at])).toBe(false);
  });
});
