export { type CanaryCheck, checkCanaries } from "./check.js";
export { planCanaries } from "./plan.js";
export type { Canary, CanaryEdit, CanaryPlan, Random, TestFile } from "./types.js";
