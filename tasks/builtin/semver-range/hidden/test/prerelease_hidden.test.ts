// Hidden tests for prerelease precedence (copied in by the grader).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { compare, inc, maxSatisfying, minSatisfying, satisfies, sort } from "../src/index.ts";

describe("prerelease precedence", () => {
  test("numeric identifiers compare as numbers", () => {
    assert.equal(compare("1.0.0-rc.10", "1.0.0-rc.9"), 1);
    assert.equal(compare("1.0.0-rc.9", "1.0.0-rc.10"), -1);
    assert.equal(compare("1.0.0-2", "1.0.0-10"), -1);
    assert.equal(compare("3.1.0-beta.100.a", "3.1.0-beta.20.b"), 1);
  });

  test("the ordering example from the SemVer specification", () => {
    const ordered = [
      "1.0.0-alpha",
      "1.0.0-alpha.1",
      "1.0.0-alpha.beta",
      "1.0.0-beta",
      "1.0.0-beta.2",
      "1.0.0-beta.11",
      "1.0.0-rc.1",
      "1.0.0",
    ];
    assert.deepEqual(sort([...ordered].reverse()), ordered);
  });

  test("a bumped prerelease sorts after the one it came from", () => {
    const next = inc("2.0.0-beta.9", "prerelease");
    assert.equal(next, "2.0.0-beta.10");
    assert.equal(compare(next, "2.0.0-beta.9"), 1);
  });

  test("lower and upper bounds on a numbered prerelease", () => {
    assert.ok(satisfies("1.0.0-rc.10", ">=1.0.0-rc.9"));
    assert.ok(!satisfies("1.0.0-rc.10", "<1.0.0-rc.9"));
    assert.ok(satisfies("1.0.0-rc.12", "1.0.0-rc.2 - 1.0.0-rc.20"));
  });

  test("max and min satisfying pick by numeric prerelease order", () => {
    const versions = ["1.0.0-rc.2", "1.0.0-rc.10", "1.0.0-rc.9"];
    assert.equal(maxSatisfying(versions, "^1.0.0-rc.1"), "1.0.0-rc.10");
    assert.equal(minSatisfying(versions, ">=1.0.0-rc.3 <1.0.0"), "1.0.0-rc.9");
  });

  test("equal numeric identifiers are equal", () => {
    assert.equal(compare("1.0.0-rc.10", "1.0.0-rc.10+build.5"), 0);
  });

  test("a long numeric identifier still sorts before an alphanumeric one", () => {
    assert.equal(compare("1.0.0-999", "1.0.0-a"), -1);
  });

  test("alphanumeric identifiers compare in ASCII order", () => {
    assert.equal(compare("1.0.0-Beta", "1.0.0-alpha"), -1);
    assert.equal(compare("1.0.0-rc-2", "1.0.0-rc-10"), 1);
  });
});
