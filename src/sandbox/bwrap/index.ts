export { buildBwrapArgs, detectRootLayout, ETC_ALLOWLIST, INSIDE_UID, WORKSPACE_MOUNT } from "./argv.js";
export { type CpuStat, SandboxCgroup } from "./cgroup.js";
export { type CgroupHost, probeCgroupHost } from "./cgroup-layout.js";
export { type CgroupLimits, type CgroupPlan, CPU_PERIOD_US, planCgroup } from "./cgroup-plan.js";
export { type Probe, probeBwrap } from "./detect.js";
export { type OwnerMapping, ownerMapping } from "./idmap.js";
export {
  adoptTree,
  assertReachable,
  MAX_ADOPT_DEPTH,
  SANDBOX_GID,
  SANDBOX_UID,
  sandboxIdentity,
} from "./owner.js";
export {
  type BwrapExecResult,
  BwrapSandbox,
  DEFAULT_CPUS,
  DEFAULT_MEMORY_BYTES,
} from "./sandbox.js";
export { buildSeccompFilter, defaultSeccompFilter, type SeccompPolicy } from "./seccomp.js";
