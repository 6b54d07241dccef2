/**
 * Canaries: tests the grader writes into the graded test files for one run, under names drawn fresh
 * for that run, some of which must pass and some of which must fail. Code under test shares the test
 * runner's process, so it can rewrite results (a conftest hook, a no-op assert, a fake runner); it
 * cannot do so without also getting the canaries wrong — a failing canary that reports PASSED, a
 * canary missing from the log — unless it knows which tests they are. That is the defence that does
 * not depend on knowing the trick.
 */
export interface Canary {
  /** The id the run's log parser gives the test (pytest `path::name`, node `suite > name`). */
  id: string;
  expect: "PASSED" | "FAILED";
}

/** Text appended to one graded test file. */
export interface CanaryEdit {
  path: string;
  append: string;
}

export interface CanaryPlan {
  canaries: Canary[];
  edits: CanaryEdit[];
  /** Why fewer canaries (or none) were planted, for the report; null when all kinds were. */
  note: string | null;
}

/** A graded test file as the test patch left it. */
export interface TestFile {
  path: string;
  text: string;
}

/** A source of uniform numbers in [0, 1): crypto-backed in grading, seeded in tests. */
export type Random = () => number;

export function pick<T>(random: Random, items: readonly T[]): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error("pick from an empty list");
  return item;
}

export function shuffle<T>(random: Random, items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/**
 * Which canaries a file gets, in a random order: `counts.fail` failing ones — every one of `cover`
 * first (the ways of failing the file itself uses), then random picks of `failing` — unless
 * `counts.fail` is 0, and `counts.pass` passing ones.
 */
export function drawCanaries<T>(
  random: Random,
  counts: { pass: number; fail: number },
  kinds: { failing: readonly T[]; passing: readonly T[]; cover: readonly T[] },
): Array<{ expect: Canary["expect"]; kind: T }> {
  const drawn: Array<{ expect: Canary["expect"]; kind: T }> = [];
  const fails = counts.fail === 0 ? 0 : Math.max(counts.fail, kinds.cover.length);
  for (let i = 0; i < fails; i++)
    drawn.push({ expect: "FAILED", kind: kinds.cover[i] ?? pick(random, kinds.failing) });
  for (let i = 0; i < counts.pass; i++) drawn.push({ expect: "PASSED", kind: pick(random, kinds.passing) });
  return shuffle(random, drawn);
}
