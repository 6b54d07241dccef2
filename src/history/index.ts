/** History processors: what of the run so far the model is shown, and what that does to the cache. */
export {
  collapse,
  countLines,
  estimateMessageTokens,
  placeholder,
  tokensOf,
} from "./collapse.js";
export { firstChange } from "./first-change.js";
export {
  batchTrim,
  type HistoryProcessor,
  keepAll,
  lastN,
  parseHistorySpec,
} from "./processors.js";
