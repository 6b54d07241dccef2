/**
 * Search tools: SWE-agent's find_file / search_dir / search_file and the production-harness grep /
 * glob, all backed by ripgrep on the host. They only read, so they run outside the sandbox; every
 * model-supplied path goes through `resolveInside` first and rg never follows symlinks.
 *
 * On Linux a per-workspace index (workspace-index.ts) answers the same rg commands from memory when
 * it can vouch for the answer: cached listings kept exact by an inotify watch, and file contents for
 * literal prefiltering. Call `releaseSearchIndex(root)` when a run's workspace is done with.
 */
import { createFindFileTool } from "./find-file.js";
import { createGlobTool } from "./glob.js";
import { createGrepTool } from "./grep.js";
import { resolveSearchOptions, type SearchOptions } from "./limits.js";
import { createSearchDirTool } from "./search-dir.js";
import { createSearchFileTool } from "./search-file.js";

export { findFileSchema } from "./find-file.js";
export { globSchema } from "./glob.js";
export { grepSchema } from "./grep.js";
export {
  DEFAULT_SEARCH_OPTIONS,
  MAX_LINE_CHARS,
  MAX_RG_OUTPUT_BYTES,
  MAX_SEARCH_RESULTS,
  RG_MAX_COLUMNS,
  SEARCH_TIMEOUT_MS,
  type SearchOptions,
} from "./limits.js";
export { searchDirSchema } from "./search-dir.js";
export { searchFileSchema } from "./search-file.js";
export { releaseAllSearchIndexes, releaseSearchIndex } from "./workspace-index.js";
export { createFindFileTool, createGlobTool, createGrepTool, createSearchDirTool, createSearchFileTool };

/** The five search tools sharing one set of settings. */
export function createSearchTools(overrides: Partial<SearchOptions> = {}) {
  const options = resolveSearchOptions(overrides);
  return {
    find_file: createFindFileTool(options),
    search_dir: createSearchDirTool(options),
    search_file: createSearchFileTool(options),
    grep: createGrepTool(options),
    glob: createGlobTool(options),
  };
}

export type SearchTools = ReturnType<typeof createSearchTools>;

const defaults = createSearchTools();
/** The tools with the default caps (50 results, 10 s per search, `rg` from PATH). */
export const findFileTool = defaults.find_file;
export const searchDirTool = defaults.search_dir;
export const searchFileTool = defaults.search_file;
export const grepTool = defaults.grep;
export const globTool = defaults.glob;
export const searchTools = [findFileTool, searchDirTool, searchFileTool, grepTool, globTool];
