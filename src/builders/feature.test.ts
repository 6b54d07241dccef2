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

describe("a JavaScript option, the keyword argument of an options object", () => {
  const old = "module.exports = (v, options) => {\n  if (options.loose) return v\n  return v.trim()\n}\n";
  const now =
    "module.exports = (v, options) => {\n  if (options.loose) return v\n  if (this.options.includePrerelease) return v + '-0'\n  return v.trim()\n}\n";
  const rows =
    "+    ['1.2.3-pre', '1.2.3-pre', { includePrerelease: true }],\n+    ['1.2', '1.2.0', { loose: true }],\n";

  it("is new when the changed files did not read it and the tests pass it as a key", async () => {
    const api = await addedApi(["coerce.js"], async (_, side) => (side === "old" ? old : now));
    expect(describeApi(api)).toBe("option includePrerelease");
    expect(describeApi(usedByTests(api, rows))).toBe("option includePrerelease");
    expect(usedByTests(api, "+    const includePrerelease = true\n")).toEqual([]);
  });

  it("is not new when the repository had it before (a fix that now also honours it)", async () => {
    const known = async (name: string) => name === "includePrerelease";
    expect(await addedApi(["coerce.js"], async (_, side) => (side === "old" ? old : now), known)).toEqual([]);
  });

  it("moved from one changed file to another is not new", async () => {
    const files: Record<string, [string, string]> = {
      "a.js": ["const f = (options) => options.rtl\n", "const f = () => 1\n"],
      "b.js": ["const g = () => 2\n", "const g = (options) => options.rtl\n"],
    };
    const api = await addedApi(["a.js", "b.js"], async (path, side) => files[path]?.[side === "old" ? 0 : 1]);
    expect(api).toEqual([]);
  });
});

it("a function in place of a name the module imported before is the same API (more-itertools' pairwise)", async () => {
  const old = "from itertools import chain, pairwise\n\n__all__ = ['pairwise']\n";
  const now =
    "from itertools import chain, pairwise as itertools_pairwise\n\n__all__ = ['pairwise']\n\n\ndef pairwise(iterable):\n    return itertools_pairwise(iterable)\n\n\ndef triplewise(iterable):\n    pass\n";
  const api = await addedApi(["recipes.py"], async (_, side) => (side === "old" ? old : now));
  expect(describeApi(api)).toBe("triplewise");
});
