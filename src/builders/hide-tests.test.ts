import { describe, expect, it } from "vitest";
import { hideTests, testRef } from "./hide-tests.js";

const SOURCE = `describe("cors", function () {
  describe("passing static options", function () {
    it("overrides defaults", function () {});

    it("includes maxAge", function () {});
  });
});
`;

describe("hideTests on JavaScript", () => {
  it("finds a test by its describe chain (node, jest, vitest ids)", async () => {
    const ref = testRef("cors > passing static options > overrides defaults", "jest-json");
    const { source, removed } = await hideTests("javascript", "test/test.js", SOURCE, [ref]);
    expect(removed).toEqual([ref]);
    expect(source).not.toContain("overrides defaults");
    expect(source).toContain("includes maxAge");
  });

  it("finds a test by mocha's full title (suites and test joined by spaces)", async () => {
    const ref = testRef("cors passing static options includes maxAge", "mocha-json");
    const { source, removed } = await hideTests("javascript", "test/test.js", SOURCE, [ref]);
    expect(removed).toEqual([ref]);
    expect(source).not.toContain("includes maxAge");
    expect(source).toContain("overrides defaults");
  });

  it("leaves the file as it was when no test has that title", async () => {
    const ref = testRef("cors passing static options is not there", "mocha-json");
    expect(await hideTests("javascript", "test/test.js", SOURCE, [ref])).toEqual({
      source: SOURCE,
      removed: [],
    });
  });
});
