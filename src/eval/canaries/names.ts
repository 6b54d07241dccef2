import { pick, type Random } from "./types.js";

/**
 * Words test names are made of. Canary names mix these with the words of the file's own test names,
 * so a canary reads like its neighbours and a hook cannot pick canaries out by vocabulary.
 */
const COMMON = [
  "accepts",
  "rejects",
  "returns",
  "keeps",
  "handles",
  "parses",
  "formats",
  "ignores",
  "reports",
  "empty",
  "input",
  "value",
  "values",
  "default",
  "order",
  "single",
  "multiple",
  "nested",
  "large",
  "small",
  "negative",
  "zero",
  "missing",
  "invalid",
  "unicode",
  "whitespace",
  "trailing",
  "leading",
  "when",
  "with",
  "without",
  "after",
  "before",
  "same",
  "other",
  "first",
  "last",
  "each",
  "all",
] as const;

/** The words of a file's test names (`test_keeps_order` → keeps, order; "keeps the order" → …). */
export function nameWords(names: readonly string[]): string[] {
  const words = new Set<string>();
  for (const name of names)
    for (const w of name.toLowerCase().split(/[^a-z]+/)) if (w.length >= 2 && w !== "test") words.add(w);
  return [...words];
}

/** 3–5 words (or `words`), at least one from the file when it has any; never one of `taken`. */
export function freshWords(
  random: Random,
  fileWords: readonly string[],
  taken: Set<string>,
  join: string,
  wordCount?: number,
): string {
  for (let attempt = 0; ; attempt++) {
    const count = wordCount ?? 3 + Math.floor(random() * 3);
    const words: string[] = [];
    for (let i = 0; i < count; i++) {
      const fromFile = fileWords.length > 0 && (i === 0 || random() < 0.5);
      // A word said twice in one name reads like no name a person wrote: draw again (a few times).
      let word = "";
      for (let again = 0; again < 4 && (word === "" || words.includes(word)); again++)
        word = fromFile ? pick(random, fileWords) : pick(random, COMMON);
      words.push(word);
    }
    // After many collisions (a file of thousands of tests), a number makes it unique.
    const name = words.join(join) + (attempt > 20 ? `${join}${attempt}` : "");
    if (!taken.has(name)) {
      taken.add(name);
      return name;
    }
  }
}

/** A short neutral identifier for the canary block's imports (letters, then digits). */
export function identifier(random: Random, taken: ReadonlySet<string>): string {
  for (;;) {
    const id = `${pick(random, ["t", "h", "u", "v"])}${pick(random, ["k", "m", "q", "x"])}${Math.floor(random() * 9000 + 1000)}`;
    if (!taken.has(id)) return id;
  }
}
