import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { needing } from "../../testing/needs.js";
import { FLAKE8_SELECT } from "./flake8.js";
import { createPythonLintWorker } from "./python.js";

/** Files that exercise each selected code and the rules around them (noqa, encodings, line ends). */
const FILES: Record<string, string> = {
  "names.py": [
    "import os",
    "from typing import List",
    "",
    "class A:",
    "    x = 1",
    "    y = [x for _ in range(3)]",
    "    def m(self):",
    "        return x + self.x",
    "",
    "def f(a=undefined_default, *args, **kw):",
    "    global G",
    "    G = 1",
    "    if (n := len(args)) > 1:",
    "        return n, later",
    "    del nothing",
    "    return [i for i in range(3)], i, f'{missing!r:>{width}}', lambda q=r: q",
    "",
    "try:",
    "    maybe",
    "except NameError:",
    "    pass",
    "",
    "match os.name:",
    "    case 'posix' if flag:",
    "        pass",
    "    case [first, *rest]:",
    "        print(first, rest, G)",
    "",
    "@decorator",
    "async def g() -> Undefined:",
    "    async with ctx() as c:",
    "        await c",
    "é = 1",
    "print(é, ü)",
    "later = 1",
    "",
  ].join("\n"),
  "exports.py": "__all__ = ['defined', 'gone'] + ['more']\n__all__ += ['extra']\ndefined = 1\n",
  "__init__.py": "__all__ = ['gone']\n",
  "dup_args.py":
    "def f(a, b, a):\n    return a\n\n\nh = lambda x, x: x\n\n\nasync def g(*, k, k=1):\n    pass\n",
  "two_spaces.py": [
    "def f(x):",
    "  # a comment at two",
    '  """A docstring',
    "     with odd indentation inside.",
    '  """',
    "  if x:",
    "      y = call(1,",
    "             2)",
    "      return y",
    "  return (x +",
    "   1)",
    "",
    "",
    "class B:",
    "   z = 1",
    "   def m(self):",
    "         return \\",
    "  2",
    "",
  ].join("\n"),
  "tabs.py": "def f(x):\n\tif x:\n\t\treturn 1\n\t  # comment\n\treturn 2\n\n\nif True:\n\t  y = 1\n",
  "tab_error.py": "if True:\n\tx = 1\n        y = 2\n",
  "syntax.py": "def f(:\n    return b\n",
  "indent_error.py": "def f():\nreturn 1\n",
  "unexpected_indent.py": "x = 1\n    y = 2\n",
  "unclosed.py": "x = (1,\n     2\n",
  "open_string.py": 'x = 1\ns = """never closed\n\nundefined\n',
  "eof_backslash.py": "x = 1 + \\\n",
  "form_feed.py": "if True:\n  \f  if x:\n    pass\n\f    z = 3\n  \f  w = 4\n",
  "noqa.py": [
    "a = b  # noqa",
    "c = d  # noqa: F821",
    "e = f  # NOQA:E501,F8",
    "g = h  # noqa: E501",
    "i = j  # noqa:F821 trailing words",
    's = """',
    "  inside a string # noqa",
    '""" + k',
    "l = (m +",
    "     n)  # noqa",
    "o = p + \\",
    "    q  # noqa",
    "r = s  # flake8: noqa",
    "",
  ].join("\n"),
  "file_noqa.py": "x = undefined\n  # flake8: noqa\n",
  "type_comments.py": [
    "from typing import List",
    "x = []  # type: List[Dict[str, int]]",
    "y = 1  # type: ignore",
    "def f(a):",
    "    # type: (Missing) -> None",
    "    pass",
    "",
  ].join("\n"),
  "crlf.py": "def f():\r\n  return a\r\n\r\nx = (\r\n  b)\r\n",
  "bom.py": "\ufeffprint(missing)\n",
  "latin1.py": "# -*- coding: latin-1 -*-\ns = 'é'\nprint(t)\n",
  "bad_cookie.py": "# coding: no-such-codec\nprint(u)\n",
  "lone_surrogate.py": "s = '\ud800'\nprint(v)\n",
  "empty.py": "",
  "no_newline.py": "def f():\n    return zz",
};

function flake8All(dir: string): Promise<Map<string, string[]>> {
  const format = "--format=%(path)s\t%(row)d\t%(col)d\t%(code)s\t%(text)s";
  const names = Object.keys(FILES).map((n) => `./${n}`);
  return new Promise((resolve, reject) =>
    execFile(
      "/usr/bin/flake8",
      ["--isolated", `--select=${FLAKE8_SELECT}`, format, ...names],
      { cwd: dir, encoding: "utf8" },
      (err, stdout, stderr) => {
        if (err && err.code !== 1) return reject(new Error(`flake8 failed: ${stderr}`));
        const byFile = new Map<string, string[]>();
        for (const line of stdout.split("\n").filter(Boolean)) {
          const [path = "", row, col, code, ...text] = line.split("\t");
          const name = path.replace(/^\.\//, "");
          byFile.set(name, [...(byFile.get(name) ?? []), `${row}:${col} ${code} ${text.join("\t")}`]);
        }
        resolve(byFile);
      },
    ),
  );
}

const worker = createPythonLintWorker();
afterAll(() => worker.close());

needing("flake8", !existsSync("/usr/bin/flake8") && "/usr/bin/flake8 is missing").describe(
  "the lint worker against real flake8",
  () => {
    it("reports exactly what flake8 --isolated --select reports, file by file", async () => {
      const dir = mkdtempSync(join(tmpdir(), "acilab-parity-"));
      try {
        for (const [name, content] of Object.entries(FILES)) writeFileSync(join(dir, name), content, "utf8");
        const expected = await flake8All(dir);
        const codes = new Set<string>();
        for (const [name, content] of Object.entries(FILES)) {
          const reply = await worker.request({ name, source: content });
          const issues = (reply.issues as [number, number, string, string][]).map(
            ([row, col, code, text]) => `${row}:${col} ${code} ${text}`,
          );
          for (const issue of issues) codes.add(issue.split(" ")[1] ?? "");
          expect({ name, issues }).toEqual({ name, issues: expected.get(name) ?? [] });
        }
        // Not a vacuous match: every code the guardrail selects (but E902, which Python 3.11 leaves to E999) shows up.
        expect([...codes].sort()).toEqual(["E111", "E112", "E113", "E999", "F821", "F822", "F831"]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  },
);

describe("the lint worker where flake8 has no answer", () => {
  it("reports null bytes as E999 (flake8 5 crashes on them)", async () => {
    const reply = await worker.request({ name: "nul.py", source: "x = 1\0\n" });
    expect(reply.issues).toEqual([
      [1, 1, "E999", "SyntaxError: source code string cannot contain null bytes"],
    ]);
  });
});
