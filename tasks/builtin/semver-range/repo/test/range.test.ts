import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { maxSatisfying, minSatisfying, parseRange, SemverError, satisfies } from "../src/index.ts";

function check(range: string, inside: string[], outside: string[]): void {
  for (const v of inside) assert.ok(satisfies(v, range), `${v} should satisfy ${range}`);
  for (const v of outside) assert.ok(!satisfies(v, range), `${v} should not satisfy ${range}`);
}

describe("satisfies", () => {
  test("plain comparators and sets", () => {
    check(">=1.2.3 <2.0.0", ["1.2.3", "1.9.9"], ["1.2.2", "2.0.0"]);
    check(">1.0.0 <=1.5.0", ["1.0.1", "1.5.0"], ["1.0.0", "1.5.1"]);
    check("=1.2.3", ["1.2.3", "1.2.3+build"], ["1.2.4"]);
    check("1.2.3", ["1.2.3"], ["1.2.4"]);
    check(">= 1.0.0", ["1.0.0"], ["0.9.0"]);
  });

  test("caret ranges allow changes that do not modify the left-most non-zero part", () => {
    check("^1.2.3", ["1.2.3", "1.9.0"], ["1.2.2", "2.0.0", "2.0.0-rc.1"]);
    check("^0.2.3", ["0.2.3", "0.2.9"], ["0.3.0"]);
    check("^0.0.3", ["0.0.3"], ["0.0.4"]);
    check("^1.2", ["1.2.0", "1.99.0"], ["1.1.9", "2.0.0"]);
    check("^0.x", ["0.0.1", "0.9.0"], ["1.0.0"]);
  });

  test("tilde ranges allow patch-level changes", () => {
    check("~1.2.3", ["1.2.3", "1.2.9"], ["1.3.0"]);
    check("~1.2", ["1.2.0", "1.2.9"], ["1.3.0"]);
    check("~1", ["1.0.0", "1.9.9"], ["2.0.0"]);
  });

  test("x-ranges and the empty range", () => {
    check("1.x", ["1.0.0", "1.9.9"], ["2.0.0", "0.9.9"]);
    check("1.2.*", ["1.2.0", "1.2.9"], ["1.3.0"]);
    check("*", ["0.0.0", "9.9.9"], []);
    check("", ["1.0.0"], []);
  });

  test("hyphen ranges are inclusive", () => {
    check("1.2.3 - 2.3.4", ["1.2.3", "2.3.4"], ["1.2.2", "2.3.5"]);
  });

  test("alternatives joined by ||", () => {
    check("<1.0.0 || >=2.0.0 <2.1.0", ["0.5.0", "2.0.5"], ["1.5.0", "2.1.0"]);
  });

  test("prereleases match only sets that name the same release", () => {
    check(">=1.0.0-beta.1 <2.0.0", ["1.0.0-beta.1", "1.0.0-beta.3", "1.0.0-rc.1", "1.5.0"], ["1.5.0-rc.1", "1.0.0-alpha.9"]);
    check("^1.2.0", ["1.2.0"], ["1.3.0-beta.1"]);
    check("*", [], ["1.0.0-rc.1"]);
  });

  test("includePrerelease lets any prerelease inside the bounds match", () => {
    assert.ok(satisfies("1.3.0-beta.1", "^1.2.0", { includePrerelease: true }));
    assert.ok(!satisfies("2.0.0-beta.1", "^1.2.0", { includePrerelease: true }));
  });

  test("malformed ranges throw", () => {
    for (const range of [">=1.2", "^a.b", "1.2.3 -", "~>1.0.0"]) {
      assert.throws(() => parseRange(range), SemverError, range);
    }
  });
});

describe("maxSatisfying and minSatisfying", () => {
  const versions = ["1.2.3", "1.4.0", "2.0.0", "1.4.1-rc.1", "not-a-version", "1.3.9"];

  test("pick the highest or lowest match", () => {
    assert.equal(maxSatisfying(versions, "^1.2.0"), "1.4.0");
    assert.equal(minSatisfying(versions, "^1.2.0"), "1.2.3");
    assert.equal(maxSatisfying(versions, ">=1.4.1-rc.0 <1.5.0"), "1.4.1-rc.1");
  });

  test("return null when nothing matches", () => {
    assert.equal(maxSatisfying(versions, "^3.0.0"), null);
    assert.equal(minSatisfying([], "*"), null);
  });
});
