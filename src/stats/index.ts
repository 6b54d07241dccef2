/**
 * Statistics for comparing arms, as pure functions: resolve rates with Wilson intervals, the paired
 * table and the exact McNemar test of an arm against a baseline, spreads and cost per resolved attempt.
 */

export { betaSample } from "./beta.js";
export { exactMcNemar, formatP, type McNemar, type PairedTable, pairedTable } from "./mcnemar.js";
export { normalCdf } from "./normal.js";
export { formatProportion, type Proportion, wilson, Z_95 } from "./proportion.js";
export { seededRandom } from "./random.js";
export { BON_MAX_N, BON_TOLERANCE, type BonCurve, bonCurve, passAtK } from "./sampling.js";
export { costPerResolved, type Spread, spread } from "./summary.js";
