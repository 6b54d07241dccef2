/**
 * The map as text, in Aider's style: each file's path, then the lines that define its most important
 * names (`│` before each, `⋮` where lines are skipped), members under their class or impl header.
 * As many definitions as fit the token budget, found by binary search as Aider does.
 */
import type { RankedDefinition } from "./rank.js";

/** Aider's default map budget: enough for the skeleton of a mid-sized repository's core. */
export const DEFAULT_MAP_TOKENS = 1024;

/** The estimate every budget here uses: ~4 characters per token for code and English. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Each file's path, then its shown lines; files in path order so a prefix stays stable as ranks shift. */
export function renderDefinitions(
  chosen: readonly RankedDefinition[],
  fileLines: ReadonlyMap<string, number> = new Map(),
): string {
  const byFile = new Map<string, Map<number, string>>();
  for (const { path, definition: d } of chosen) {
    let lines = byFile.get(path);
    if (!lines) {
      lines = new Map();
      byFile.set(path, lines);
    }
    if (d.context) lines.set(d.context.line, d.context.signature);
    lines.set(d.line, d.signature);
  }
  const out: string[] = [];
  for (const path of [...byFile.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) {
    const lines = byFile.get(path) as Map<number, string>;
    out.push(`${path}:`);
    let previous = 0;
    for (const line of [...lines.keys()].sort((a, b) => a - b)) {
      if (line !== previous + 1) out.push("⋮");
      out.push(`│${lines.get(line)}`);
      previous = line;
    }
    if (previous < (fileLines.get(path) ?? Number.POSITIVE_INFINITY)) out.push("⋮");
  }
  return out.length > 0 ? `${out.join("\n")}\n` : "";
}

export interface FittedMap {
  text: string;
  /** How many of the ranked definitions made it in (the top ones). */
  definitions: number;
}

/**
 * The longest prefix of `ranked` whose rendering fits `budgetTokens`. Rendering more definitions
 * never gives shorter text, so a binary search over the count finds it in log(n) renderings.
 */
export function fitToBudget(
  ranked: readonly RankedDefinition[],
  budgetTokens: number,
  fileLines?: ReadonlyMap<string, number>,
): FittedMap {
  let low = 0;
  let high = upperBound(ranked, budgetTokens * 4);
  let best: FittedMap = { text: "", definitions: 0 };
  while (low <= high) {
    const middle = Math.floor((low + high) / 2);
    const text = renderDefinitions(ranked.slice(0, middle), fileLines);
    if (estimateTokens(text) <= budgetTokens) {
      best = { text, definitions: middle };
      low = middle + 1;
    } else high = middle - 1;
  }
  return best;
}

/**
 * A count no fitting prefix exceeds: each new (file, line) pair adds at least its signature, `│` and
 * a newline, so the first prefix whose new lines alone pass the budget's characters cannot fit. It
 * keeps the search's renderings small when there are thousands of definitions.
 */
function upperBound(ranked: readonly RankedDefinition[], budgetChars: number): number {
  const seen = new Set<string>();
  let chars = 0;
  for (let i = 0; i < ranked.length; i++) {
    const { path, definition } = ranked[i] as RankedDefinition;
    const key = `${path}\0${definition.line}`;
    if (seen.has(key)) continue;
    seen.add(key);
    chars += definition.signature.length + 2;
    if (chars > budgetChars) return i;
  }
  return ranked.length;
}
