/**
 * The tools area's public surface: the tool contract (declaration, context, result), the registry
 * that dispatches calls, the named toolsets the CLI offers, and the pieces runs need from the
 * families (code actions' formats, the search index's release). The families themselves — file/,
 * search/, exec/, code/, lint/ — are this area's business; other areas reach them through here.
 */
export {
  ACTION_FORMATS,
  type ActionFormat,
  createRunCodeTool,
  type Language,
  toolsForFormat,
} from "./code/index.js";
export { failure, ToolFailure } from "./errors.js";
export { createFileTools, type FileToolOptions, type FileTools, fileToolContext } from "./file/index.js";
export { type AnyTool, isFormatError, ToolRegistry } from "./registry.js";
export { createSearchTools, releaseAllSearchIndexes, releaseSearchIndex } from "./search/index.js";
export { TOOLSETS, type Toolset, toolset } from "./toolsets.js";
export {
  type BaseToolContext,
  defineTool,
  type EditorState,
  type NestedCall,
  newEditorState,
  type PermissionDecision,
  type PermissionHook,
  type Resolution,
  type ScreenPoint,
  type ToolContext,
  type ToolDefinition,
  type ToolErrorKind,
  type ToolKind,
  type ToolResult,
  type ToolTarget,
} from "./types.js";
