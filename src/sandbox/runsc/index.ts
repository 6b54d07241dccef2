export { type RunscBuild, runscBuild } from "./build.js";
export { probeRunsc, type RunscProbe } from "./detect.js";
export { openRunsc } from "./open.js";
export { RunscSandbox, type RunscSandboxOptions } from "./sandbox.js";
