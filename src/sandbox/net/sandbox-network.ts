import { existsSync } from "node:fs";
import { RELAY_PYTHON } from "./forwarder.js";
import { type NetworkPolicy, parseNetworkPolicy } from "./network.js";
import type { NetDecision } from "./policy.js";
import { NetProxy } from "./proxy.js";
import type { AllowRule } from "./rules.js";

/**
 * One sandbox's network side: nothing for "none"; for an allowlist, the proxy, started by the first
 * exec that needs it (a sandbox that never runs a command costs no server) and stopped on close.
 */
export class SandboxNetwork {
  /** Parsed rules; undefined for network "none" and "loopback". */
  readonly rules: readonly AllowRule[] | undefined;
  private readonly loopback: boolean;
  private proxy: Promise<NetProxy> | undefined;
  /** The running proxy once started; kept after close() so its decisions can still be read. */
  private started: NetProxy | undefined;
  private closed = false;

  /** Throws on a bad policy, naming the rule and the fix — before the sandbox does anything else. */
  constructor(
    policy: NetworkPolicy | undefined,
    private readonly owner?: { uid: number; gid: number },
  ) {
    this.rules = parseNetworkPolicy(policy);
    this.loopback = policy === "loopback";
    // The sandbox's /usr is the host's: the relay needs its python3 (see forwarder.ts).
    if (this.rules && !existsSync(RELAY_PYTHON))
      throw new Error(
        `sandbox: the network allowlist needs ${RELAY_PYTHON} for its relay inside the sandbox, and this host has none — install python3 (apt-get install python3-minimal) or use network "none"`,
      );
  }

  /** True when commands get the proxy (and inet sockets, for its loopback address). */
  get enabled(): boolean {
    return this.rules !== undefined;
  }

  /** True when commands may make inet sockets: for the proxy, or for servers on their own loopback. */
  get inet(): boolean {
    return this.enabled || this.loopback;
  }

  /** The proxy's host directory to mount, starting the proxy on first use; undefined for "none". */
  async dir(): Promise<string | undefined> {
    if (!this.rules) return undefined;
    if (this.closed) throw new Error("sandbox: network proxy used after close(); create a new sandbox");
    this.proxy ??= NetProxy.start({ rules: this.rules, ...(this.owner ? { owner: this.owner } : {}) });
    try {
      this.started = await this.proxy;
      return this.started.dir;
    } catch (err) {
      this.proxy = undefined; // the next exec tries again
      throw err;
    }
  }

  /** Every allow/refuse decision so far (empty for "none" or before the first request). */
  decisions(): NetDecision[] {
    return this.started?.decisions() ?? [];
  }

  async close(): Promise<void> {
    this.closed = true;
    const proxy = await this.proxy?.catch(() => undefined);
    this.proxy = undefined;
    await proxy?.close();
  }
}
