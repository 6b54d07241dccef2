import { ANSI_ESCAPE, type TestStatusMap } from "./types.js";

/** node's TAP reporter indents each nesting level by four spaces. */
const INDENT = 4;

/**
 * Parse `node --test --test-reporter=tap` output. Test ids are the names from the outermost
 * `describe` down to the test, joined by " > ". `# SKIP` and `# TODO` directives count as SKIPPED.
 */
export function parseNodeTap(log: string): TestStatusMap {
  const statuses: TestStatusMap = new Map();
  const stack: string[] = [];
  for (const raw of log.split("\n")) {
    const line = raw.replace(ANSI_ESCAPE, "");
    const subtest = /^(\s*)# Subtest: (.*)$/.exec(line);
    if (subtest) {
      const depth = Math.floor((subtest[1] as string).length / INDENT);
      stack.length = depth;
      stack[depth] = (subtest[2] as string).trim();
      continue;
    }
    const result = /^(\s*)(not ok|ok) \d+ - (.*?)(?:\s+#\s*(SKIP|TODO)\b.*)?$/i.exec(line);
    if (!result) continue;
    const depth = Math.floor((result[1] as string).length / INDENT);
    const name = unescapeTap((result[3] as string).trim());
    const path = [...stack.slice(0, depth), name];
    stack.length = depth;
    const directive = result[4];
    const status = directive ? "SKIPPED" : result[2] === "ok" ? "PASSED" : "FAILED";
    statuses.set(path.join(" > "), status);
  }
  return statuses;
}

function unescapeTap(name: string): string {
  return name.replace(/\\#/g, "#").replace(/\\\\/g, "\\");
}
