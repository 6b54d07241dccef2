export { checkTwins, type TwinCheck } from "./check.js";
export { baseId, planTwins, TWIN_LIMITS, type TwinInput } from "./plan.js";
export { twinParsers } from "./syntax.js";
export type { Twin, TwinJudge, TwinKind, TwinnedFile, TwinPlan, TwinResult } from "./types.js";
