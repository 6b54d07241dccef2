import { describe, expect, it } from "vitest";
import { UsageError } from "./args.js";
import { type OptionTable, optionLines, parseOptions, wrap } from "./options.js";

const TABLE = {
  out: { type: "string", value: "<dir>", help: "where results go", default: "runs/x" },
  tag: { type: "string", multiple: true, value: "T", help: "a label; repeatable" },
  sandbox: {
    type: "string",
    value: "<backend>",
    help: "where it runs",
    defaultHelp: "auto, or ACILAB_SANDBOX",
  },
  verbose: { type: "boolean", short: "v", help: "say more" },
  "allow-net-for-a-long-name": { type: "string", value: "HOST[:PORT]", help: "a long label" },
} as const satisfies OptionTable;

describe("option tables", () => {
  it("give the parser each option's type, repeats, short flag and default", () => {
    const { values } = parseOptions("t", ["--tag", "a", "--tag", "b", "-v"], TABLE);
    expect(values).toMatchObject({ out: "runs/x", tag: ["a", "b"], verbose: true });
    expect(values.sandbox).toBeUndefined(); // a defaultHelp is shown, never applied
    expect(parseOptions("t", ["--out", "elsewhere"], TABLE).values.out).toBe("elsewhere");
  });

  it("turn a bad command line into a usage error naming the option", () => {
    expect(() => parseOptions("t", ["--nope"], TABLE)).toThrow(UsageError);
    expect(() => parseOptions("t", ["--nope"], TABLE)).toThrow(/Unknown option '--nope'/);
    expect(() => parseOptions("t", ["--out"], TABLE)).toThrow(/Option '--out <value>' argument missing/);
  });

  it("render one aligned line per option with its placeholder and default; a long name does not widen the column", () => {
    expect(optionLines(TABLE).split("\n")).toEqual([
      "  --out <dir>          where results go (default runs/x)",
      "  --tag T              a label; repeatable",
      "  --sandbox <backend>  where it runs (default auto, or ACILAB_SANDBOX)",
      "  -v, --verbose        say more",
      "  --allow-net-for-a-long-name HOST[:PORT]  a long label",
    ]);
  });

  it("wrap long descriptions under the description column", () => {
    const lines = optionLines({ x: { type: "boolean", help: "word ".repeat(40) } }, 40).split("\n");
    expect(lines[0]).toBe("  --x  word word word word word word");
    expect(lines.slice(1).every((l) => l.startsWith("       word") && l.length <= 40)).toBe(true);
    expect(lines.join(" ").match(/word/g)).toHaveLength(40);
    expect(wrap("a bb ccc", 4, 3)).toEqual(["a bb", "ccc"]);
    // No continuation line starts with an option-like word: it takes the word before it along.
    expect(wrap("run node --test here", 10, 20)).toEqual(["run", "node --test here"]);
  });
});
