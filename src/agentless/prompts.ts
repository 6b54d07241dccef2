/**
 * What each stage asks the model. Two things in every prompt are a contract, documented in
 * docs/policies.md and read by the recorded test server (src/policies/testing/recorded.ts): the
 * system prompt's first line is `Agentless stage: <stage>`, and the user message holds the issue
 * between `<issue>` and `</issue>` lines. Together they say which recorded answer a request gets.
 */

export const STAGES = [
  "localise-files",
  "localise-units",
  "localise-lines",
  "repair",
  "reproduce",
  "validate",
  "vote",
] as const;
export type Stage = (typeof STAGES)[number];

export interface Prompt {
  system: string;
  user: string;
}

const stageLine = (stage: Stage) => `Agentless stage: ${stage}`;
const issueBlock = (issue: string) => `<issue>\n${issue.trim()}\n</issue>`;

export function localiseFilesPrompt(issue: string, tree: readonly string[]): Prompt {
  return {
    system: [
      stageLine("localise-files"),
      "You find where a bug lives. Given an issue and a repository's files, name the files that must be edited to fix it, most likely first, at most four.",
      "Answer with one path per line inside a ``` block, exactly as listed, and nothing else.",
    ].join("\n"),
    user: [
      issueBlock(issue),
      "",
      "The repository's files (tests are left out: the fix is in the code):",
      "```",
      ...tree,
      "```",
    ].join("\n"),
  };
}

export function localiseUnitsPrompt(
  issue: string,
  skeletons: readonly { path: string; text: string }[],
): Prompt {
  return {
    system: [
      stageLine("localise-units"),
      "You narrow a bug down to classes and functions. Given an issue and the skeletons of some files (signatures and docstrings; bodies elided), name the classes, functions or methods that must change.",
      "Answer inside a ``` block: a file's path on a line, then one `function: name`, `class: Name` or `method: Class.name` line per unit.",
    ].join("\n"),
    user: [
      issueBlock(issue),
      "",
      ...skeletons.flatMap((s) => [`### ${s.path}`, "```", s.text, "```", ""]),
    ].join("\n"),
  };
}

export function localiseLinesPrompt(
  issue: string,
  sources: readonly { path: string; numbered: string }[],
): Prompt {
  return {
    system: [
      stageLine("localise-lines"),
      "You point at the lines to edit. Given an issue and some code with line numbers, name the line ranges that must change.",
      "Answer inside a ``` block with lines like `path: 47-50` (or `path: 47` for one line).",
    ].join("\n"),
    user: [
      issueBlock(issue),
      "",
      ...sources.flatMap((s) => [`### ${s.path}`, "```", s.numbered, "```", ""]),
    ].join("\n"),
  };
}

export function repairPrompt(issue: string, segments: readonly { path: string; code: string }[]): Prompt {
  return {
    system: [
      stageLine("repair"),
      "You fix bugs with search/replace edits. Given an issue and the code around where it lives, write the edits that fix it.",
      "Write each edit as a block, naming its file first:",
      "### path/to/file",
      "<<<<<<< SEARCH",
      "lines copied exactly from the file, indentation included",
      "=======",
      "the lines that replace them",
      ">>>>>>> REPLACE",
      "Copy enough SEARCH lines to match one place only. Edit only the files shown.",
    ].join("\n"),
    user: [
      issueBlock(issue),
      "",
      "The code (… marks lines left out):",
      ...segments.flatMap((s) => [`### ${s.path}`, "```", s.code, "```", ""]),
    ].join("\n"),
  };
}

export function reproducePrompt(
  issue: string,
  test: { path: string; command: string; example: { path: string; head: string } | undefined },
): Prompt {
  return {
    system: [
      stageLine("reproduce"),
      "You write a test that reproduces a reported bug: it must fail on the code as it is and pass once the bug is fixed.",
      "Answer with the whole test file in one ``` block and nothing else.",
    ].join("\n"),
    user: [
      issueBlock(issue),
      "",
      `The file will be saved as ${test.path} and run with: ${test.command}`,
      ...(test.example
        ? ["", `How an existing test file (${test.example.path}) begins:`, "```", test.example.head, "```"]
        : []),
    ].join("\n"),
  };
}

/** Lines of a file numbered as editors show them, for the line stage. */
export function numbered(text: string, start: number, end: number): string {
  const lines = text.split("\n");
  const width = String(end).length;
  return lines
    .slice(start - 1, end)
    .map((line, i) => `${String(start + i).padStart(width)} | ${line}`)
    .join("\n");
}
