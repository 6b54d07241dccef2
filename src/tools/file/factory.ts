import { createLintGuard, type EditGuard, noLintGuard } from "../lint/index.js";
import type { ToolDefinition } from "../types.js";
import { makeCreateFileTool } from "./create-file.js";
import { makeEditTool } from "./edit.js";
import { makeInsertTool } from "./insert.js";
import { readFileTool } from "./read-file.js";
import { makeStrReplaceTool } from "./str-replace.js";
import { undoTool } from "./undo.js";
import { gotoTool, scrollTool, viewTool } from "./viewer.js";
import { makeWriteFileTool } from "./write-file.js";

export interface FileToolOptions {
  /**
   * The lint guardrail for str_replace, insert, edit, create_file and write_file: true (default) runs
   * flake8 / the TypeScript checker on Python and JS/TS files, false turns it off (an experiment arm),
   * or pass your own EditGuard.
   */
  lint?: boolean | EditGuard;
}

/** Every file tool, keyed by name, with the edit tools sharing one guard. */
export function createFileTools(options: FileToolOptions = {}) {
  const lint = options.lint ?? true;
  const guard = lint === true ? createLintGuard() : lint === false ? noLintGuard : lint;
  return {
    view: viewTool,
    goto: gotoTool,
    scroll: scrollTool,
    read_file: readFileTool,
    str_replace: makeStrReplaceTool(guard),
    insert: makeInsertTool(guard),
    create_file: makeCreateFileTool(guard),
    undo: undoTool,
    edit: makeEditTool(guard),
    write_file: makeWriteFileTool(guard),
  };
}

export type FileTools = ReturnType<typeof createFileTools>;

/** The file tools as a list, in a stable order (tool-set builders pick from it by name). */
export function fileToolList(options: FileToolOptions = {}): ToolDefinition[] {
  return Object.values(createFileTools(options));
}
