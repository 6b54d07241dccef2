/**
 * Knobs for tests and benchmarks (bench/sandbox.ts): the bwrap backend's phase marks and its fork
 * server switch. Runs never touch them, so they stay off the area's index.
 */
export { onPhase } from "./bwrap/phases.js";
export { useSpawner } from "./bwrap/spawner.js";
