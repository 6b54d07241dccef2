import { describe, expect, it } from "vitest";
import { addedApi, describeApi, usedByTests } from "./feature.js";

const before = `def first(iterable, default=None):
    return next(iter(iterable), default)


class Peekable:
    def peek(self):
        return self._cache[0]

    def _fill(self):
        pass
`;
const after = `def first(iterable, default=None, *, strict=False):
    return next(iter(iterable), default)


def subfactorial(n):
    return _helper(n)


def _helper(n):
    return n


class Peekable:
    def peek(self):
        return self._cache[0]

    def prepend(self, *items):
        self._cache.extendleft(items)

    def _fill(self):
        pass


class Windowed:
    def step(self):
        pass
`;

const read = (path: string, side: "old" | "new") =>
  Promise.resolve(path === "more.py" ? (side === "old" ? before : after) : undefined);

describe("what a change adds", () => {
  it("lists new public functions, methods, classes and keywords — not private helpers or a new class's methods", async () => {
    const api = await addedApi(["more.py"], read);
    expect(describeApi(api)).toBe("subfactorial, Peekable.prepend, Windowed, keyword strict of first");
  });

  it("keeps those the change's tests use: by name, or a keyword as an argument", async () => {
    const api = await addedApi(["more.py"], read);
    const tests = [
      "+++ b/tests/test_more.py",
      "+    self.assertEqual(mi.subfactorial(4), 9)",
      "+    p.prepend(1)",
      "+    strict = True", // an assignment, not the keyword
      "+    mi.first(",
      "+        [],",
      "+        strict=True,",
      "+    )",
      " unchanged_line(Windowed)",
    ].join("\n");
    expect(describeApi(usedByTests(api, tests))).toBe(
      "subfactorial, Peekable.prepend, keyword strict of first",
    );
    expect(usedByTests(api, "+    strict = True\n")).toEqual([]);
  });

  it("finds JavaScript's functions, exports and class methods", async () => {
    const api = await addedApi(["index.js"], async (_, side) =>
      side === "old"
        ? "exports.valid = (v) => v;\nclass Range { test() {} }\n"
        : "exports.valid = (v) => v;\nexports.coerce = (v) => v;\nfunction minVersion(r) {}\nclass Range { test() {} intersects() {} }\n",
    );
    expect(describeApi(api)).toBe("coerce, minVersion, Range.intersects");
  });
});
