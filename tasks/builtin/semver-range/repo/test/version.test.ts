import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { compare, eq, format, gt, inc, lt, parse, SemverError, sort, valid } from "../src/index.ts";

describe("parse", () => {
  test("reads core, prerelease and build parts", () => {
    assert.deepEqual(parse("1.22.333-rc.1+build.7"), {
      major: 1,
      minor: 22,
      patch: 333,
      prerelease: ["rc", "1"],
      build: ["build", "7"],
    });
  });

  test("accepts a leading v or = and surrounding spaces", () => {
    assert.equal(format(parse(" v2.0.1 ")), "2.0.1");
    assert.equal(format(parse("=2.0.1")), "2.0.1");
  });

  test("rejects text that is not a version", () => {
    for (const text of ["1.2", "1.2.3.4", "01.2.3", "1.2.3-01", "1.2.3-", "1.2.3-a..b", "1.2.3+", "latest", ""]) {
      assert.throws(() => parse(text), SemverError, text);
      assert.equal(valid(text), false, text);
    }
  });

  test("format round-trips canonical text", () => {
    for (const text of ["0.0.0", "1.2.3-alpha.0", "1.2.3+sha.5114f85", "10.20.30-x-y-z.1+b"]) {
      assert.equal(format(parse(text)), text);
    }
  });
});

describe("compare", () => {
  test("orders by major, then minor, then patch", () => {
    assert.equal(compare("1.2.3", "2.0.0"), -1);
    assert.equal(compare("1.10.0", "1.9.9"), 1);
    assert.equal(compare("1.2.10", "1.2.9"), 1);
    assert.equal(compare("1.2.3", "v1.2.3"), 0);
  });

  test("a prerelease sorts before its release", () => {
    assert.equal(compare("1.0.0-alpha", "1.0.0"), -1);
    assert.equal(compare("1.0.0", "1.0.0-rc.1"), 1);
    assert.equal(compare("1.0.0-rc.1", "0.9.9"), 1);
  });

  test("prerelease identifiers compare field by field", () => {
    const ordered = ["1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2", "1.0.0-rc.1", "1.0.0"];
    for (let i = 0; i + 1 < ordered.length; i++) {
      assert.equal(compare(ordered[i]!, ordered[i + 1]!), -1, `${ordered[i]} < ${ordered[i + 1]}`);
      assert.equal(compare(ordered[i + 1]!, ordered[i]!), 1, `${ordered[i + 1]} > ${ordered[i]}`);
    }
  });

  test("numeric identifiers sort before alphanumeric ones", () => {
    assert.equal(compare("1.0.0-1", "1.0.0-alpha"), -1);
    assert.equal(compare("1.0.0-rc.1", "1.0.0-rc.a"), -1);
  });

  test("build metadata does not affect precedence", () => {
    assert.equal(compare("1.0.0+20130313144700", "1.0.0+exp.sha.5114f85"), 0);
    assert.ok(eq("1.0.0-beta+a", "1.0.0-beta+b"));
  });

  test("lt and gt agree with compare", () => {
    assert.ok(lt("0.9.0", "1.0.0"));
    assert.ok(gt("1.0.1", "1.0.0"));
    assert.ok(!lt("1.0.0", "1.0.0"));
  });

  test("sort returns a new ascending array", () => {
    const input = ["1.10.0", "1.2.0", "1.2.0-beta.1", "0.1.0", "1.2.0-alpha"];
    assert.deepEqual(sort(input), ["0.1.0", "1.2.0-alpha", "1.2.0-beta.1", "1.2.0", "1.10.0"]);
    assert.equal(input[0], "1.10.0");
  });
});

describe("inc", () => {
  test("major, minor and patch bump one field and reset the lower ones", () => {
    assert.equal(inc("1.2.3", "major"), "2.0.0");
    assert.equal(inc("1.2.3", "minor"), "1.3.0");
    assert.equal(inc("1.2.3", "patch"), "1.2.4");
  });

  test("a prerelease is released by the matching bump", () => {
    assert.equal(inc("2.0.0-rc.1", "major"), "2.0.0");
    assert.equal(inc("1.3.0-rc.1", "minor"), "1.3.0");
    assert.equal(inc("1.2.4-rc.1", "patch"), "1.2.4");
    assert.equal(inc("1.2.4-rc.1", "minor"), "1.3.0");
  });

  test("prerelease bumps the last number or starts a new series", () => {
    assert.equal(inc("1.2.3", "prerelease"), "1.2.4-0");
    assert.equal(inc("1.2.3", "prerelease", "beta"), "1.2.4-beta.0");
    assert.equal(inc("1.2.4-beta.0", "prerelease"), "1.2.4-beta.1");
    assert.equal(inc("1.2.4-beta.3.x", "prerelease"), "1.2.4-beta.4.x");
    assert.equal(inc("1.2.4-beta", "prerelease"), "1.2.4-beta.0");
    assert.equal(inc("1.2.4-beta.3", "prerelease", "rc"), "1.2.4-rc.0");
  });
});
