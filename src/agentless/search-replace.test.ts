import { describe, expect, it } from "vitest";
import { applySearchReplace, parseEdits } from "./search-replace.js";

const FILES = new Set(["pkg/a.py", "pkg/b.py"]);
const BASE = new Map([
  ["pkg/a.py", "def f(x):\n    return x - 1\n"],
  ["pkg/b.py", "y = 1\nz = 2"],
]);

describe("SEARCH/REPLACE blocks", () => {
  it("reads blocks under ### headers and inside fences, and applies them in order", () => {
    const reply = [
      "Fix both.",
      "### pkg/a.py",
      "```python",
      "<<<<<<< SEARCH",
      "    return x - 1",
      "=======",
      "    return x + 1",
      ">>>>>>> REPLACE",
      "```",
      "pkg/b.py",
      "<<<<<<< SEARCH",
      "z = 2",
      "=======",
      "z = 3",
      ">>>>>>> REPLACE",
    ].join("\n");
    const { edits, problems } = parseEdits(reply, FILES);
    expect(problems).toEqual([]);
    expect(edits.map((e) => e.path)).toEqual(["pkg/a.py", "pkg/b.py"]);
    const applied = applySearchReplace(BASE, edits);
    expect(applied).toEqual({
      ok: true,
      files: new Map([
        ["pkg/a.py", "def f(x):\n    return x + 1\n"],
        // The file's last line has no newline: it still matches, and keeps none.
        ["pkg/b.py", "y = 1\nz = 3"],
      ]),
    });
  });

  it("fails a candidate whose SEARCH text is not in the file, naming the block and the file", () => {
    const { edits } = parseEdits(
      "### pkg/a.py\n<<<<<<< SEARCH\n    return y\n=======\n    return 0\n>>>>>>> REPLACE",
      FILES,
    );
    expect(applySearchReplace(BASE, edits)).toEqual({
      ok: false,
      reason: 'block 1: the SEARCH text (starting "return y") is not in pkg/a.py',
    });
  });

  it("says what is malformed: no block, no file, no divider, an empty SEARCH", () => {
    expect(parseEdits("Swap the branches.", FILES).problems).toEqual([
      "the reply has no SEARCH/REPLACE block",
    ]);
    expect(parseEdits("<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE", FILES).problems[0]).toContain(
      "names no file",
    );
    expect(parseEdits("### pkg/a.py\n<<<<<<< SEARCH\nx\n>>>>>>> REPLACE", FILES).problems[0]).toContain(
      "no ======= line",
    );
    expect(
      parseEdits("### pkg/a.py\n<<<<<<< SEARCH\n=======\ny\n>>>>>>> REPLACE", FILES).problems[0],
    ).toContain("empty SEARCH");
  });

  it("lets a block name no file when only one is open, and never edits a file that is not", () => {
    const one = new Set(["pkg/a.py"]);
    expect(
      parseEdits("<<<<<<< SEARCH\n    return x - 1\n=======\n    return x\n>>>>>>> REPLACE", one).edits,
    ).toHaveLength(1);
    const elsewhere = parseEdits(
      "### ../etc/passwd\n<<<<<<< SEARCH\nroot\n=======\nx\n>>>>>>> REPLACE",
      FILES,
    );
    expect(elsewhere.edits).toEqual([]);
    expect(elsewhere.problems[0]).toContain("names no file");
  });
});
