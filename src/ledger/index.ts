/** The cost ledger: usage × a price table, running totals, budget checks and cache-bust detection. */
export {
  type AgentShare,
  CACHE_BUST_TOLERANCE_TOKENS,
  costOf,
  isCacheBust,
  Ledger,
  type LedgerEntry,
  type LedgerOptions,
  type LedgerTotals,
  MAIN_AGENT,
  type RequestRecord,
  uncachedInput,
} from "./ledger.js";
export {
  CACHE_READ_MULTIPLIER,
  CACHE_WRITE_MULTIPLIER,
  FREE_POLICIES,
  loadPriceOverrides,
  PRICES,
  type Price,
  type PriceTable,
  parsePriceOverrides,
  priceFor,
  ratesOf,
  withOverrides,
} from "./prices.js";
