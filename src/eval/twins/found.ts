import type { SyntaxNode } from "../../syntax/index.js";
import type { Random } from "../canaries/index.js";
import type { TwinJudge } from "./types.js";

/** A text replacement at [start, end) of a file (string offsets, as tree-sitter gives them here). */
export interface Span {
  start: number;
  end: number;
}

/**
 * One way to invert a test: an assertion's replacement. `make` draws the random part (the suffix, the
 * amount, the other exception) when the twin is planted, so each run's inverted twins differ.
 */
export interface Inversion extends Span {
  judge: TwinJudge;
  /** The assertion's text as the original has it. */
  before: string;
  make: (random: Random) => string;
}

/** A test found in a graded file, with everything needed to copy it. */
export interface FoundTest {
  /** Its id as the log parser gives it, without pytest's parameter suffix. */
  id: string;
  /** The test's name as written (pytest: the function's; node: the title's value). */
  name: string;
  /** The whole definition: decorators and `def …`, or the `test("…", …);` statement. */
  whole: Span;
  /** The column's indentation, for the copy's next lines. */
  indent: string;
  /** Where the name is written inside the definition. */
  nameAt: Span;
  /** The name as source text, for a fresh name (a Python identifier; a JS string literal in the same quotes). */
  writeName: (name: string) => string;
  /** The id of a copy named `name`. */
  idFor: (name: string) => string;
  /** The words other names of this kind are made of (for fresh names that read like the file's). */
  separator: "_" | " ";
  /** Why this test gets no twin at all, as the file shows it (another test of the same id…), or null. */
  blocked: string | null;
  /**
   * The rest of what decides its twins, read from its body only when the test is drawn (most of a
   * file's tests are not, and reading a body is most of planning's cost); remembered.
   */
  analyse: () => Analysis;
}

export interface Analysis {
  /** Why this test gets no twin at all (it reads its own name, runs in an order…), or null. */
  blocked: string | null;
  /** The assertions an inverted twin may change. */
  inversions: Inversion[];
  /** Why it has no inversion (when `inversions` is empty). */
  noInversion: string | null;
}

/** `make` run once, its result kept. */
export function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => {
    made ??= { value: make() };
    return made.value;
  };
}

/** A few random lowercase letters: appended to an expected string, no code produces it by chance. */
export function randomLetters(random: Random, count = 4): string {
  let s = "";
  for (let i = 0; i < count; i++) s += String.fromCharCode(97 + Math.floor(random() * 26));
  return s;
}

/**
 * A number no honest code returns where the test expected `value`: moved by a random amount of at
 * least 1,000 and of a random sign, so it is neither the value, nor an off-by-one of it, nor within
 * any tolerance a test states next to a literal.
 */
export function shiftedNumber(random: Random, text: string): string | null {
  const clean = text.trim();
  if (/^\d+$/.test(clean)) return String(BigInt(clean) + BigInt(1000 + Math.floor(random() * 90_000)));
  if (/^(\d+\.\d*|\.\d+)(e[+-]?\d+)?$/i.test(clean)) {
    const value = Number(clean);
    // Past 1e290 a shift of 91,000 × the value overflows to Infinity, which is no literal.
    if (!Number.isFinite(value) || Math.abs(value) > 1e290) return null;
    const moved = value + (1000 + Math.floor(random() * 90_000)) * (Math.abs(value) + 1) + 0.5;
    return String(moved).includes(".") || /e/i.test(String(moved)) ? String(moved) : `${moved}.0`;
  }
  return null;
}

/**
 * A container display (`[…]`, `(…)`, `{…}`) with one more element: `extra` goes right after the last
 * element (before a trailing comma or comment), or inside the empty brackets. A list with an element
 * no code produced is never equal to the value the original expected.
 */
export function withOneMore(
  container: { text: string; startIndex: number },
  last: { endIndex: number } | undefined,
  extra: string,
): string {
  if (!last) return `${container.text.slice(0, 1)}${extra}${container.text.slice(1)}`;
  const at = last.endIndex - container.startIndex;
  return `${container.text.slice(0, at)}, ${extra}${container.text.slice(at)}`;
}

/** The inversion that puts what `make` gives in place of `node`'s text. */
export function replacing(
  node: SyntaxNode,
  before: string,
  judge: Inversion["judge"],
  make: Inversion["make"],
): Inversion {
  return { start: node.startIndex, end: node.endIndex, before, judge, make };
}
