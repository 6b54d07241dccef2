import { describe, expect, it } from "vitest";
import { parseCodeBlock, parseFileList, parseLineRanges, parseUnits } from "./replies.js";
import type { CodeUnit } from "./skeleton.js";

const TREE = new Set(["pkg/core.py", "pkg/text.py", "README.md"]);
const unit = (name: string, startLine: number, endLine: number): CodeUnit => ({
  name,
  kind: name.includes(".") ? "method" : "function",
  startLine,
  endLine,
});

describe("localisation replies", () => {
  it("reads files through bullets, backticks and ./, drops and counts names not in the tree", () => {
    const reply = "Most likely:\n```\n- `./pkg/core.py`\n2. pkg/stats.py\npkg/core.py\n```\npkg/text.py";
    expect(parseFileList(reply, TREE)).toEqual({
      picked: ["pkg/core.py", "pkg/text.py"],
      dropped: ["pkg/stats.py"],
    });
    expect(parseFileList("I am not sure where it is.", TREE).picked).toEqual([]);
  });

  it("reads units in both layouts, resolves a bare method name, drops unknown ones", () => {
    const units = new Map([
      ["pkg/core.py", [unit("median", 10, 20), unit("Cache.get", 30, 35)]],
      ["pkg/text.py", [unit("words", 1, 5)]],
    ]);
    const reply =
      "pkg/core.py\nfunction: median()\nmethod: get\nfunction: mean\npkg/text.py: words, sentences";
    const { picked, dropped } = parseUnits(reply, units);
    expect(picked.map((p) => `${p.path}:${p.unit.name}`)).toEqual([
      "pkg/core.py:median",
      "pkg/core.py:Cache.get",
      "pkg/text.py:words",
    ]);
    expect(dropped).toEqual(["pkg/core.py: mean", "pkg/text.py: sentences"]);
  });

  it("reads ranges and single lines, and drops those outside the file", () => {
    const counts = new Map([["pkg/core.py", 60]]);
    const { picked, dropped } = parseLineRanges("pkg/core.py: 47-50\nline: 52\npkg/core.py: 58-70", counts);
    expect(picked).toEqual([
      { path: "pkg/core.py", start: 47, end: 50 },
      { path: "pkg/core.py", start: 52, end: 52 },
    ]);
    expect(dropped).toEqual(["pkg/core.py: 58-70"]);
  });

  it("takes the first fenced block as the test file, and says when there is none", () => {
    expect(parseCodeBlock("Here:\n```python\nimport x\n\ndef test_a():\n    assert x\n```\nDone.")).toEqual({
      code: "import x\n\ndef test_a():\n    assert x\n",
    });
    expect(parseCodeBlock("def test_a(): pass")).toEqual({
      error: expect.stringContaining("no fenced code block"),
    });
  });
});
