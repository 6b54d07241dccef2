/**
 * The model's answers to the localisation and reproduction stages, read leniently (models add
 * bullets, backticks, fences, "./" and prose) but checked strictly: only what names a real file,
 * unit or line survives, and everything dropped is counted so the trajectory can say so.
 */
import type { CodeUnit } from "./skeleton.js";

/** Agentless edits a handful of files; more would dilute the repair prompt past usefulness. */
export const MAX_FILES = 4;

export interface Picked<T> {
  picked: T[];
  /** What the reply named that is not in the repository (or not in the file, or out of range). */
  dropped: string[];
}

/** A reply's lines with the decoration models wrap names in taken off; fences and blank lines gone. */
export function cleanLines(reply: string): string[] {
  return reply
    .split("\n")
    .map((line) =>
      line
        .trim()
        .replace(/^(?:[-*+]|\d+[.)])\s+/, "")
        .replace(/[`*"']/g, "")
        .trim(),
    )
    .filter((line) => line !== "" && !line.startsWith("```") && !line.startsWith("~~~"));
}

const stripPath = (text: string) => text.replace(/^\.\//, "").replace(/[,:;]+$/, "");
/** A token that could be meant as a path: no spaces, a dot or a slash in it. */
const looksLikePath = (text: string) => /^[\w./-]+$/.test(text) && /[./]/.test(text);

/** The files a reply names, in order, at most MAX_FILES, each in `tree`. */
export function parseFileList(reply: string, tree: ReadonlySet<string>): Picked<string> {
  const picked: string[] = [];
  const dropped: string[] = [];
  for (const line of cleanLines(reply)) {
    for (const token of line.split(/\s+/).map(stripPath)) {
      if (!looksLikePath(token)) continue;
      if (tree.has(token)) {
        if (!picked.includes(token) && picked.length < MAX_FILES) picked.push(token);
      } else if (!dropped.includes(token)) dropped.push(token);
    }
  }
  return { picked, dropped };
}

export interface PickedUnit {
  path: string;
  unit: CodeUnit;
}

/**
 * Units named as `path: name, name`, or a path line followed by `function: name` / `class: name` /
 * `method: Class.name` lines (Agentless's format). A bare method name matches `Class.method` when only
 * one class has it.
 */
export function parseUnits(
  reply: string,
  units: ReadonlyMap<string, readonly CodeUnit[]>,
): Picked<PickedUnit> {
  const picked: PickedUnit[] = [];
  const dropped: string[] = [];
  let current: string | undefined = units.size === 1 ? [...units.keys()][0] : undefined;
  const take = (path: string | undefined, raw: string) => {
    const name = raw
      .replace(/\(.*$/, "")
      .replace(/^(?:def|function|class|method)\s+/, "")
      .trim();
    if (name === "") return;
    const known = path === undefined ? undefined : units.get(path);
    const unit =
      known?.find((u) => u.name === name) ??
      (known?.filter((u) => u.name.endsWith(`.${name}`)).length === 1
        ? known.find((u) => u.name.endsWith(`.${name}`))
        : undefined);
    if (!unit || path === undefined) {
      dropped.push(path === undefined ? name : `${path}: ${name}`);
      return;
    }
    if (!picked.some((p) => p.path === path && p.unit.name === unit.name)) picked.push({ path, unit });
  };
  for (const line of cleanLines(reply)) {
    const bare = stripPath(line);
    if (units.has(bare)) {
      current = bare;
      continue;
    }
    const colon = line.indexOf(":");
    const head = colon < 0 ? "" : stripPath(line.slice(0, colon).trim());
    const rest = colon < 0 ? line : line.slice(colon + 1).trim();
    if (units.has(head)) {
      current = head;
      for (const name of rest.split(/[,\s]+/)) take(head, name);
    } else if (/^(?:function|class|method|def)$/i.test(head)) take(current, rest);
  }
  return { picked, dropped };
}

export interface LineRange {
  path: string;
  /** 1-based, inclusive. */
  start: number;
  end: number;
}

/** Ranges named as `path: 47-50`, `path: line 47`, or a path line followed by `line: 47` lines. */
export function parseLineRanges(reply: string, lineCounts: ReadonlyMap<string, number>): Picked<LineRange> {
  const picked: LineRange[] = [];
  const dropped: string[] = [];
  let current: string | undefined = lineCounts.size === 1 ? [...lineCounts.keys()][0] : undefined;
  for (const line of cleanLines(reply)) {
    const bare = stripPath(line);
    if (lineCounts.has(bare)) {
      current = bare;
      continue;
    }
    const colon = line.indexOf(":");
    const head = colon < 0 ? "" : stripPath(line.slice(0, colon).trim());
    let rest = line;
    if (lineCounts.has(head)) {
      current = head;
      rest = line.slice(colon + 1);
    }
    if (current === undefined) continue;
    const count = lineCounts.get(current) ?? 0;
    for (const m of rest.matchAll(/(\d+)\s*(?:-|–|to)\s*(\d+)|(\d+)/g)) {
      const start = Number(m[1] ?? m[3]);
      const end = Number(m[2] ?? m[3]);
      if (start >= 1 && start <= end && end <= count) picked.push({ path: current, start, end });
      else dropped.push(`${current}: ${m[0]}`);
    }
  }
  return { picked, dropped };
}

/** The first fenced code block of a reply: the reproduction test's source. */
export function parseCodeBlock(reply: string): { code: string } | { error: string } {
  const match = /^[ \t]*(```|~~~)[^\n]*\n([\s\S]*?)^[ \t]*\1[ \t]*$/m.exec(reply);
  if (!match) return { error: "the reply has no fenced code block (```…```) holding the test file" };
  const code = match[2] as string;
  if (code.trim() === "") return { error: "the reply's code block is empty" };
  return { code };
}
