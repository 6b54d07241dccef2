/**
 * Reading the run's files for the inspector: every record is JSON someone else wrote (a torn or
 * edited file), so each field is read as what it should be or a safe default, and long text and
 * lists are cut head and tail.
 */

/** Characters kept of one observation, one argument list, one thought, the task statement, a patch. */
export const INSPECT_CAPS = {
  observation: 8_000,
  input: 4_000,
  thought: 4_000,
  statement: 6_000,
  patch: 60_000,
  /** One step's diff. */
  diff: 20_000,
  /** Lines of a new file or a program shown as code (head and tail). */
  codeLines: 400,
};

export const str = (v: unknown) => (typeof v === "string" ? v : null);
export const numOrNull = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : null);
export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** A field as text whatever it holds: records are read back from files nothing validated. */
export const asText = (v: unknown) =>
  typeof v === "string" ? v : v === null || v === undefined ? "" : JSON.stringify(v);
export const asNumber = (v: unknown, fallback = 0) => numOrNull(v) ?? fallback;
export const asList = (v: unknown) => (Array.isArray(v) ? v : []);
export const asRecord = (v: unknown) => (isRecord(v) ? v : {});

/** Head and tail of a long list, and how many were cut from its middle. */
export function headAndTail<T>(items: readonly T[], max: number): { items: T[]; cut: number } {
  if (items.length <= max) return { items: [...items], cut: 0 };
  const head = Math.ceil(max / 2);
  return {
    items: [...items.slice(0, head), ...items.slice(items.length - (max - head))],
    cut: items.length - max,
  };
}
