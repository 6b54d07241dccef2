/**
 * The repo map (after Aider's): every file's definitions from tree-sitter, ranked by how much the
 * rest of the repository uses them (PageRank over the files, leaning toward what the conversation
 * mentions), and the best of them rendered to fit a token budget. Tags are cached per file.
 */
export { cacheFileFor, TAGS_VERSION, TagsCache } from "./cache.js";
export {
  type Definition,
  type DefinitionContext,
  type DefinitionKind,
  MAX_SIGNATURE_CHARS,
} from "./definitions.js";
export { listFiles, SKIPPED_DIRS } from "./list-files.js";
export { identWeight, type Mentioned, type RankedDefinition, type Ranking, rankDefinitions } from "./rank.js";
export { MAX_SOURCE_BYTES } from "./read-tags.js";
export {
  DEFAULT_MAP_TOKENS,
  estimateTokens,
  type FittedMap,
  fitToBudget,
  renderDefinitions,
} from "./render.js";
export { buildRepoMap, type RepoMap, type RepoMapOptions, repoMapPrefix } from "./repo-map.js";
export { type FileTags, tagsOf } from "./tags.js";
