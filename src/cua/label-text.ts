/**
 * A control's label as a person reads it, for the confirmation gate's vocabulary match: what a page
 * can do to make "Delete account" read as something else to a program while it looks the same on the
 * screen. Invisible characters (zero-width spaces, soft hyphens, joiners, variation selectors, bidi
 * controls: Unicode's Default_Ignorable_Code_Point) are dropped; compatibility forms are folded
 * (NFKC: full-width and mathematical letters); look-alike letters from other scripts become the
 * letters they imitate (Unicode's confusables skeleton, from the unhomoglyph package: Cyrillic "е" is
 * "e", "1" between letters is "l"). A right-to-left override shows its letters backwards, so a label
 * is read both as stored and as shown. Pure; every rule is a unit test.
 */
import unhomoglyph from "unhomoglyph";

const IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;
/** RIGHT-TO-LEFT OVERRIDE … POP DIRECTIONAL FORMATTING (or the end): shown in reverse. */
const RLO = "\u202e";
const ENDS_OVERRIDE = /[\u202a-\u202e\u2066-\u2069\n]/;

/** One reading, folded for matching: no invisibles, NFKC, the confusables skeleton, lower case. */
export function foldLabel(text: string): string {
  const plain = text.replace(IGNORABLE, "").normalize("NFKC");
  // Skeleton, lower case, skeleton again: lower-casing can make a new look-alike (Cherokee letters).
  return unhomoglyph(unhomoglyph(plain).toLowerCase()).replace(/\s+/g, " ").trim();
}

/** The text as shown: every right-to-left override's run of characters reversed. */
export function shownOrder(text: string): string {
  let out = "";
  let i = 0;
  while (i < text.length) {
    const start = text.indexOf(RLO, i);
    if (start < 0) {
      out += text.slice(i);
      break;
    }
    out += text.slice(i, start);
    const rest = text.slice(start + 1);
    const end = rest.search(ENDS_OVERRIDE);
    const run = end < 0 ? rest : rest.slice(0, end);
    out += [...run].reverse().join("");
    i = start + 1 + run.length;
  }
  return out;
}

/** Every reading of a label the gate judges: as stored and as shown, folded; duplicates once. */
export function labelReadings(text: string): string[] {
  return [...new Set([foldLabel(text), foldLabel(shownOrder(text))])];
}
