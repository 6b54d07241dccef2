export { hostOwnAddress } from "./addresses.js";
export {
  FORWARDER_PY,
  forwarderArgv,
  PROXY_MOUNT,
  PROXY_PORT,
  PROXY_URL,
  proxyEnvironment,
  RELAY_PYTHON,
} from "./forwarder.js";
export { type NetworkPolicy, parseNetworkPolicy } from "./network.js";
export {
  allowFlag,
  decide,
  formatDecisions,
  hostLookup,
  type Lookup,
  type NetDecision,
  type Verdict,
} from "./policy.js";
export { MAX_DECISIONS, NetProxy, type NetProxyOptions, PROXY_SOCKET } from "./proxy.js";
export {
  type AllowRule,
  DEFAULT_PORTS,
  matchRule,
  namesAddress,
  normaliseHost,
  parseAllowlist,
  parseAllowRule,
} from "./rules.js";
export { SandboxNetwork } from "./sandbox-network.js";
