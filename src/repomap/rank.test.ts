import { describe, expect, it } from "vitest";
import type { Definition } from "./definitions.js";
import { identWeight, rankDefinitions } from "./rank.js";
import type { FileTags } from "./tags.js";

function def(name: string, line = 1): Definition {
  return { name, kind: "function", line, signature: `def ${name}():` };
}

function file(path: string, defines: string[], uses: Record<string, number> = {}): FileTags {
  return {
    path,
    language: "python",
    definitions: defines.map((n, i) => def(n, i + 1)),
    references: Object.entries(uses).sort(),
    lines: defines.length,
    partial: false,
  };
}

/** core.py is used by three files, lonely.py by none; leaf files use core. */
const REPO = [
  file("core.py", ["load_config", "parse_value"]),
  file("lonely.py", ["unused_helper"]),
  file("a.py", ["run_a"], { load_config: 2, parse_value: 1 }),
  file("b.py", ["run_b"], { load_config: 1 }),
  file("c.py", ["run_c"], { parse_value: 1, run_a: 1 }),
];

describe("rankDefinitions", () => {
  it("ranks a file many files use above one that none uses", () => {
    const { files, definitions } = rankDefinitions(REPO);
    expect(files.get("core.py")).toBeGreaterThan(files.get("lonely.py") as number);
    expect(definitions[0]?.path).toBe("core.py");
    const unused = definitions.find((d) => d.definition.name === "unused_helper");
    expect(unused?.rank).toBe(0);
    // File ranks are a distribution.
    expect([...files.values()].reduce((a, b) => a + b, 0)).toBeCloseTo(1, 6);
  });

  it("leans toward mentioned files: what they use rises", () => {
    const plain = rankDefinitions(REPO).definitions.map((d) => d.definition.name);
    const focused = rankDefinitions(REPO, { files: ["c.py"] }).definitions.map((d) => d.definition.name);
    // c.py uses run_a (a.py): mentioned, that use outranks load_config, which c.py does not use.
    expect(plain.indexOf("load_config")).toBeLessThan(plain.indexOf("run_a"));
    expect(focused.indexOf("run_a")).toBeLessThan(focused.indexOf("load_config"));
  });

  it("takes a folder as a mention of everything under it", () => {
    const tags = [
      file("lib/x.py", ["x_helper_one"], { y_helper_two: 1 }),
      file("y.py", ["y_helper_two"]),
      file("z.py", ["z_helper"]),
    ];
    const { files } = rankDefinitions(tags, { files: ["lib/"] });
    expect(files.get("y.py")).toBeGreaterThan(files.get("z.py") as number);
  });

  it("boosts a mentioned identifier's definition", () => {
    const tags = [
      file("u.py", ["main"], { alpha: 1, beta: 1 }),
      file("a.py", ["alpha"]),
      file("b.py", ["beta"]),
    ];
    const plain = rankDefinitions(tags).definitions.map((d) => d.definition.name);
    const boosted = rankDefinitions(tags, { idents: ["beta"] }).definitions.map((d) => d.definition.name);
    expect(plain.slice(0, 2)).toEqual(["alpha", "beta"]); // a tie, broken by path
    expect(boosted.slice(0, 2)).toEqual(["beta", "alpha"]);
  });

  it("does not let a short word used everywhere (a local's name, mostly) outrank a descriptive one", () => {
    // Forty files each use `root` (their own local, in truth) beside their own helper module.
    const users = Array.from({ length: 40 }, (_, i) =>
      file(`use${i}.py`, [`f${i}`], { root: 1, [`helperFunction${i}`]: 1 }),
    );
    const helpers = Array.from({ length: 40 }, (_, i) => file(`helper${i}.py`, [`helperFunction${i}`]));
    const tags = [
      ...users,
      ...helpers,
      file("consts.py", ["root"]),
      file("config.py", ["load_config"]),
      file("app.py", ["main"], { load_config: 1 }),
      file("cli.py", ["cli"], { load_config: 1 }),
    ];
    const names = rankDefinitions(tags).definitions.map((d) => d.definition.name);
    expect(names.indexOf("load_config")).toBeLessThan(names.indexOf("root"));
  });

  it("is deterministic whatever order the files come in", () => {
    const one = rankDefinitions(REPO).definitions.map((d) => `${d.path}:${d.definition.name}`);
    const other = rankDefinitions([...REPO].reverse()).definitions.map(
      (d) => `${d.path}:${d.definition.name}`,
    );
    expect(other).toEqual(one);
  });

  it("ignores a file's uses of its own names", () => {
    const { definitions } = rankDefinitions([file("self.py", ["recurse"], { recurse: 5 })]);
    expect(definitions[0]?.rank).toBe(0);
  });

  it("handles an empty repository", () => {
    expect(rankDefinitions([])).toEqual({ definitions: [], files: new Map() });
  });
});

describe("identWeight (Aider's weights)", () => {
  const none = new Set<string>();
  it("counts long descriptive names more, private and common names less", () => {
    expect(identWeight("x", 1, none)).toBe(1);
    expect(identWeight("loadConfig", 1, none)).toBe(10);
    expect(identWeight("load_config", 1, none)).toBe(10);
    expect(identWeight("loadcfg", 1, none)).toBe(1); // short and one word
    expect(identWeight("_private", 1, none)).toBeCloseTo(0.1);
    expect(identWeight("run", 6, none)).toBeCloseTo(0.1); // defined in more than five files
    expect(identWeight("run", 1, new Set(["run"]))).toBe(10);
  });

  it("divides a short plain word's pull by √(files using it); a descriptive or mentioned name keeps it", () => {
    expect(identWeight("root", 1, none, 100)).toBeCloseTo(0.1);
    expect(identWeight("loadConfig", 1, none, 100)).toBe(10);
    expect(identWeight("root", 1, new Set(["root"]), 100)).toBe(10);
  });
});
