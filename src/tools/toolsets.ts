import { didYouMean } from "../words/index.js";
import { createShellTool, runTestsTool, submitTool } from "./exec/index.js";
import { createFileTools } from "./file/index.js";
import { createSearchTools } from "./search/index.js";
import type { ToolDefinition } from "./types.js";

/** A named tool set: one arm of an interface experiment. */
export interface Toolset {
  name: string;
  /** What the arm changes relative to `full`, and why it is worth measuring. */
  description: string;
  tools: ToolDefinition[];
}

function build(): Record<string, Toolset> {
  const file = createFileTools();
  const search = createSearchTools();
  const searchTools = [search.grep, search.glob, search.find_file, search.search_dir, search.search_file];
  const readTools = [file.view, file.goto, file.scroll, file.read_file];
  const stringEdits = [file.str_replace, file.insert, file.create_file, file.undo];
  const sets: Toolset[] = [
    {
      name: "full",
      description:
        "search + view/read + str_replace edits (lint-guarded) + create + run_tests + submit (search, str_replace edits and a test runner, plus the viewer)",
      tools: [...searchTools, ...readTools, ...stringEdits, runTestsTool, submitTool],
    },
    {
      name: "whole-file",
      description:
        "full, but edits are whole-file writes (write_file) instead of str_replace: models overwrite files with placeholders",
      tools: [...searchTools, ...readTools, file.create_file, file.write_file, runTestsTool, submitTool],
    },
    {
      name: "no-search",
      description:
        "full without grep/glob/find_file/search_dir/search_file: the agent must browse by viewing",
      tools: [...readTools, ...stringEdits, runTestsTool, submitTool],
    },
    {
      name: "no-tests",
      description: "full without run_tests: the agent cannot check its fix",
      tools: [...searchTools, ...readTools, ...stringEdits, submitTool],
    },
    {
      name: "line-edit",
      description:
        "SWE-agent's interface: find_file/search_dir/search_file, the 100-line viewer and `edit n:m` with lint rollback",
      tools: [
        search.find_file,
        search.search_dir,
        search.search_file,
        file.view,
        file.goto,
        file.scroll,
        file.edit,
        file.create_file,
        runTestsTool,
        submitTool,
      ],
    },
    {
      name: "shell-only",
      description:
        "one bash tool, like the bash-only leaderboard harness; submit by echoing COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT",
      tools: [createShellTool({ submitByMarker: true })],
    },
    {
      name: "full-shell",
      description:
        "full plus a shell tool, for reproductions and ad-hoc commands (closest to production harnesses)",
      tools: [...searchTools, ...readTools, ...stringEdits, createShellTool(), runTestsTool, submitTool],
    },
  ];
  return Object.fromEntries(sets.map((s) => [s.name, s]));
}

export const TOOLSETS: Readonly<Record<string, Toolset>> = build();

export function toolset(name: string): Toolset {
  const set = TOOLSETS[name];
  if (!set)
    throw new Error(
      `no tool set "${name}"${didYouMean(name, Object.keys(TOOLSETS))} (the tool sets are ${Object.keys(TOOLSETS).join(", ")}: "acilab tasks list --toolsets")`,
    );
  return set;
}
