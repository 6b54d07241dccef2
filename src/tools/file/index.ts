import { createFileTools } from "./factory.js";

export { EDIT_CONTEXT_LINES, REGION_MAX_LINES, renderRegion, UNDO_DEPTH } from "./commit.js";
export { fileToolContext } from "./context.js";
export { makeCreateFileTool } from "./create-file.js";
export { makeEditTool } from "./edit.js";
export { createFileTools, type FileToolOptions, type FileTools, fileToolList } from "./factory.js";
export { makeInsertTool } from "./insert.js";
export { READ_FILE_MAX_LINES, readFileTool } from "./read-file.js";
export { MAX_LISTED_MATCH_LINES, makeStrReplaceTool } from "./str-replace.js";
export { LINE_NUMBER_WIDTH, MAX_LINE_CHARS, splitLines } from "./text.js";
export { undoTool } from "./undo.js";
export {
  GOTO_OFFSET_LINES,
  gotoTool,
  renderWindow,
  SCROLL_OVERLAP_LINES,
  scrollTool,
  VIEW_WINDOW_LINES,
  viewTool,
} from "./viewer.js";
export { DIRECTORY_HINT_ENTRIES, MAX_TEXT_FILE_BYTES } from "./workspace-io.js";
export { makeWriteFileTool } from "./write-file.js";

const linted = createFileTools();
/** Ready-made edit tools with the lint guardrail on (the default arm). */
export const strReplaceTool = linted.str_replace;
export const insertTool = linted.insert;
export const createFileTool = linted.create_file;
export const editTool = linted.edit;
export const writeFileTool = linted.write_file;
