export { type CanaryCheck, checkCanaries } from "./check.js";
export { freshWords, nameWords } from "./names.js";
export { planCanaries } from "./plan.js";
export type { Canary, CanaryEdit, CanaryPlan, Random, TestFile } from "./types.js";
export { pick, shuffle } from "./types.js";
