import type { z } from "zod";

/**
 * Every JSON report of one shape in the log, in order. A report is one JSON object, but the log
 * around it may hold anything (npm's banner, console output, a second run), so candidates are found
 * by their first key (`start`, a regex source that matches the opening brace and key) and cut out by
 * matching braces, strings included.
 */
export function findJsonReports<T>(log: string, start: string, schema: z.ZodType<T>): T[] {
  const reports: T[] = [];
  const starts = new RegExp(start, "g");
  for (let m = starts.exec(log); m !== null; m = starts.exec(log)) {
    const end = matchingBrace(log, m.index);
    if (end < 0) continue;
    try {
      const parsed = schema.safeParse(JSON.parse(log.slice(m.index, end + 1)));
      if (parsed.success) {
        reports.push(parsed.data);
        starts.lastIndex = end + 1;
      }
    } catch {
      // not JSON after all: keep looking
    }
  }
  return reports;
}

function matchingBrace(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === "\\") i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === "{") depth++;
    else if (ch === "}" && --depth === 0) return i;
  }
  return -1;
}
