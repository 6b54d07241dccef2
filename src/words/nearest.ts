/**
 * "Did you mean": the known word a typo was probably meant to be — one edit-distance measure for
 * every message that names an unknown field, task, tool set or policy kind.
 */

/** Levenshtein distance: insertions, deletions and substitutions, one each. */
export function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(
        (row[j] ?? 0) + 1,
        (next[j - 1] ?? 0) + 1,
        (row[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    row = next;
  }
  return row[b.length] ?? 0;
}

/** Typos this close (or closer) are offered as what was meant; further is a different word. */
export const SUGGEST_WITHIN = 2;

/**
 * The known word closest to `word` within `within` edits, or one that starts with it (a cut-off
 * name: "median" for "median-even"); undefined when nothing is that close.
 */
export function nearestWord(
  word: string,
  known: readonly string[],
  within = SUGGEST_WITHIN,
): string | undefined {
  let best: { word: string; distance: number } | undefined;
  for (const candidate of known) {
    const d = editDistance(word, candidate);
    if (d <= within && (best === undefined || d < best.distance)) best = { word: candidate, distance: d };
  }
  if (best) return best.word;
  return word.length >= 3 ? known.find((k) => k.startsWith(word) || word.startsWith(k)) : undefined;
}

/** ` — did you mean "x"?` for a message, or "" when nothing is close. */
export function didYouMean(word: string, known: readonly string[]): string {
  const guess = nearestWord(word, known);
  return guess === undefined ? "" : ` — did you mean "${guess}"?`;
}
