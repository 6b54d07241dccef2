import { freshWords, nameWords } from "./names.js";
import { type Canary, drawCanaries, pick, type Random, type TestFile } from "./types.js";

/** A canary body: indented statements of a test function. */
type Body = (random: Random) => string[];

const n = (random: Random, lo = 2, hi = 40) => lo + Math.floor(random() * (hi - lo));
const word = (random: Random) => pick(random, ["alpha", "delta", "kilo", "sierra", "tango", "zulu"]);

/** Bodies that pass, through plain asserts (pytest rewrites them in the module like the real tests). */
const PASSING: Body[] = [
  (r) => {
    const [a, b] = [n(r), n(r)];
    return [`assert ${a} + ${b} == ${a + b}`];
  },
  (r) => {
    const xs = [n(r), n(r), n(r)];
    return [`assert sorted([${xs.join(", ")}]) == [${[...xs].sort((p, q) => p - q).join(", ")}]`];
  },
  (r) => {
    const w = word(r);
    return [`assert "${w}".upper() == "${w.toUpperCase()}"`];
  },
];

/** Bodies that fail: a plain assert, and — when the file uses it — pytest.raises and pytest.approx. */
const FAILING: Body[] = [
  (r) => {
    const [a, b] = [n(r), n(r)];
    return [`assert ${a} + ${b} == ${a + b + 1}`];
  },
  (r) => {
    const xs = [n(r), n(r) + 40, n(r) + 80];
    return [`assert sorted([${xs.join(", ")}]) == [${[...xs].reverse().join(", ")}]`];
  },
  (r) => {
    const w = word(r);
    return [`assert "${w}".upper() == "${w}"`];
  },
];

const RAISES_FAIL: Body = (r) => [
  "import pytest",
  "",
  "with pytest.raises(ValueError):",
  `    int("${n(r)}")`,
];
const APPROX_FAIL: Body = (r) => ["import pytest", "", `assert ${n(r)}.5 == pytest.approx(${n(r) + 50}.25)`];

/** The top-level test functions of a pytest module (`def test_x`, also inside classes, for names). */
function testNames(text: string): string[] {
  return [...text.matchAll(/^\s*(?:async\s+)?def\s+(test\w*)\s*\(/gm)].map((m) => m[1] as string);
}

/**
 * Canary functions for one pytest module: module-level `def test_…():` blocks appended to the file,
 * so they are collected however the command selects the file. Ids are `path::name`.
 */
export function pytestCanaries(
  random: Random,
  file: TestFile,
  counts: { pass: number; fail: number },
): { canaries: Canary[]; append: string } {
  const existing = testNames(file.text);
  // Names are drawn without the `test_` prefix they get below: compare them the same way (a canary
  // named like a real test would replace it in the module).
  const taken = new Set(existing.map((n) => n.replace(/^test_/, "")));
  const words = nameWords(existing);
  const failing = [...FAILING];
  if (/pytest\.raises\s*\(/.test(file.text)) failing.push(RAISES_FAIL);
  if (/pytest\.approx\s*\(/.test(file.text)) failing.push(APPROX_FAIL);
  // A failing canary goes through pytest.raises when the file uses it: a patched raises is the
  // likeliest no-op after a report hook.
  const cover = failing.includes(RAISES_FAIL) ? [RAISES_FAIL] : [];
  const blocks: string[] = [];
  const canaries: Canary[] = [];
  for (const { expect, kind: body } of drawCanaries(random, counts, { failing, passing: PASSING, cover })) {
    const name = `test_${freshWords(random, words, taken, "_")}`;
    blocks.push(
      `def ${name}():\n${body(random)
        .map((l) => (l ? `    ${l}` : ""))
        .join("\n")}\n`,
    );
    canaries.push({ id: `${file.path}::${name}`, expect });
  }
  const separator = file.text.endsWith("\n") ? "\n\n" : "\n\n\n";
  return { canaries, append: `${separator}${blocks.join("\n\n")}` };
}
