/**
 * The seccomp filter every bwrap sandbox runs under, generated here as classic BPF — the raw
 * `struct sock_filter[]` that `bwrap --seccomp FD` loads. Generated in TypeScript rather than compiled
 * with libseccomp at bootstrap: no C toolchain on a fresh machine, the same bytes on every host, and
 * the program is small enough to check instruction by instruction (seccomp.test.ts runs it through a
 * BPF interpreter).
 *
 * Policy: everything is allowed except the calls below, which fail with EPERM. Namespaces and cgroups
 * already contain the sandbox; this filter closes what they leave open — a vsock socket reaches the
 * VM's host from an empty network namespace, a new user namespace hands back every capability, and
 * io_uring can open sockets without calling socket(). A syscall from another ABI (i386 on x86_64, x32)
 * would dodge the numbers below, so it kills the process.
 */

import { SYSCALL_TABLES, type SyscallTable } from "./seccomp-tables.js";

/** `struct seccomp_data` offsets: nr, arch, then args[i] as u64 at 16 + 8i (low word first: LE). */
const OFFSET_NR = 0;
const OFFSET_ARCH = 4;
const offsetArgLow = (i: number) => 16 + 8 * i;

export { AUDIT_ARCH_AARCH64, AUDIT_ARCH_X86_64, SYSCALL_TABLES } from "./seccomp-tables.js";

export const SECCOMP_RET_KILL_PROCESS = 0x80000000;
export const SECCOMP_RET_ALLOW = 0x7fff0000;
const SECCOMP_RET_ERRNO = 0x00050000;
export const EPERM = 1;
export const ENOSYS = 38;
export const retErrno = (errno: number) => (SECCOMP_RET_ERRNO | errno) >>> 0;

export const AF_UNIX = 1;
export const AF_INET = 2;
export const AF_INET6 = 10;
export const AF_NETLINK = 16;
export const NETLINK_ROUTE = 0;

/** Every CLONE_NEW* flag: NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET, NEWTIME. */
export const CLONE_NEW_MASK =
  0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000 | 0x80;

export interface SeccompPolicy {
  /**
   * Socket families a program may create. Default: AF_UNIX only — inet/inet6 (even to the sandbox's
   * own loopback), netlink, packet, vsock and every other family fail with EPERM.
   */
  socketFamilies?: readonly number[];
  /**
   * Also allow AF_INET and AF_INET6: the network allowlist is on, and programs reach its proxy at
   * 127.0.0.1 (see ../net/). The sandbox's network namespace has only its own loopback, so these
   * sockets reach nothing else; vsock and netlink — which would reach past the namespace — stay
   * refused. Ignored when `socketFamilies` is given.
   */
  loopbackInet?: boolean;
  /**
   * Let the program build a sandbox of its own below this one: new namespaces (clone/unshare with
   * CLONE_NEW*) and chroot pass. For Chromium inside the browser box, whose namespace sandbox puts
   * each renderer in a new user, pid and net namespace and chroots it into an empty directory. The
   * namespaces it makes are children of the box's, so they hold no more than the box does; mounts,
   * setns, ptrace, bpf, io_uring and the rest stay refused. Netlink sockets of the routing family pass
   * too: Chromium's network service watches its addresses through one and crashes without it
   * (measured: "FD ownership violation" after the EPERM); a route socket sees only the box's own
   * network namespace. Other netlink families (audit, uevent) stay refused.
   */
  nestedSandbox?: boolean;
}

/** The calls `nestedSandbox` lets through besides new namespaces. */
const NESTED_SANDBOX_CALLS: ReadonlySet<string> = new Set(["chroot"]);

/** One classic-BPF instruction; `jt`/`jf` may name a label until assembled. */
interface Insn {
  code: number;
  k: number;
  jt?: number | string;
  jf?: number | string;
  label?: string;
}

const BPF_LD_W_ABS = 0x20;
const BPF_JMP_JEQ_K = 0x15;
const BPF_JMP_JGE_K = 0x35;
const BPF_JMP_JSET_K = 0x45;
const BPF_RET_K = 0x06;

const load = (offset: number): Insn => ({ code: BPF_LD_W_ABS, k: offset });
const ret = (action: number): Insn => ({ code: BPF_RET_K, k: action >>> 0 });
const jeq = (k: number, jt: number | string, jf: number | string = 0): Insn => ({
  code: BPF_JMP_JEQ_K,
  k,
  jt,
  jf,
});
const jge = (k: number, jt: number | string, jf: number | string = 0): Insn => ({
  code: BPF_JMP_JGE_K,
  k,
  jt,
  jf,
});
const jset = (k: number, jt: number | string, jf: number | string = 0): Insn => ({
  code: BPF_JMP_JSET_K,
  k,
  jt,
  jf,
});
const labelled = (label: string, insn: Insn): Insn => ({ ...insn, label });

/** The filter for one architecture's table: entered with nothing loaded, ends in a return. */
function archSection(t: SyscallTable, families: readonly number[], p: string, nested: boolean): Insn[] {
  const out: Insn[] = [labelled(`${p}start`, load(OFFSET_NR))];
  if (t.foreignFrom !== undefined) out.push(jge(t.foreignFrom, "kill"));
  out.push(jeq(t.socket, `${p}family`), jeq(t.socketpair, `${p}family`));
  if (!nested) out.push(jeq(t.clone, `${p}nsflags`), jeq(t.unshare, `${p}nsflags`));
  // clone3 passes its flags in memory a filter cannot read: ENOSYS makes glibc fall back to clone().
  out.push(jeq(t.clone3, "enosys"));
  for (const [name, nr] of Object.entries(t.denied))
    if (!(nested && NESTED_SANDBOX_CALLS.has(name))) out.push(jeq(nr, "eperm"));
  out.push(ret(SECCOMP_RET_ALLOW));
  // socket(domain, …) / socketpair(domain, …): only the allowed families.
  out.push(labelled(`${p}family`, load(offsetArgLow(0))));
  for (const family of families) out.push(jeq(family, "allow"));
  if (nested) {
    // socket(AF_NETLINK, type, protocol): NETLINK_ROUTE only.
    out.push(jeq(AF_NETLINK, `${p}netlink`), ret(retErrno(EPERM)));
    out.push(labelled(`${p}netlink`, load(offsetArgLow(2))), jeq(NETLINK_ROUTE, "allow"));
    out.push(ret(retErrno(EPERM)));
    return out;
  }
  out.push(ret(retErrno(EPERM)));
  // clone(flags, …) / unshare(flags): no new namespaces (threads and plain forks pass).
  out.push(labelled(`${p}nsflags`, load(offsetArgLow(0))));
  out.push(jset(CLONE_NEW_MASK, "eperm", "allow"));
  return out;
}

/** Resolve labels to relative offsets; classic BPF only jumps forward, at most 255 instructions. */
function assemble(program: Insn[]): Buffer {
  const at = new Map<string, number>();
  program.forEach((insn, i) => {
    if (insn.label !== undefined) at.set(insn.label, i);
  });
  const offset = (target: number | string | undefined, i: number): number => {
    if (target === undefined) return 0;
    if (typeof target === "number") return target;
    const to = at.get(target);
    if (to === undefined) throw new Error(`seccomp: jump to unknown label "${target}"`);
    const off = to - i - 1;
    if (off < 0 || off > 255)
      throw new Error(`seccomp: jump to "${target}" is ${off} instructions; BPF allows 0–255`);
    return off;
  };
  const buf = Buffer.alloc(program.length * 8);
  program.forEach((insn, i) => {
    buf.writeUInt16LE(insn.code, i * 8);
    buf.writeUInt8(offset(insn.jt, i), i * 8 + 2);
    buf.writeUInt8(offset(insn.jf, i), i * 8 + 3);
    buf.writeUInt32LE(insn.k >>> 0, i * 8 + 4);
  });
  return buf;
}

/**
 * The filter as bytes for `bwrap --seccomp FD`: dispatch on `seccomp_data.arch` to the x86_64 or
 * aarch64 section (so one program serves both hosts), kill on any other arch.
 */
export function buildSeccompFilter(policy: SeccompPolicy = {}): Buffer {
  const families = policy.socketFamilies ?? (policy.loopbackInet ? [AF_UNIX, AF_INET, AF_INET6] : [AF_UNIX]);
  const program: Insn[] = [load(OFFSET_ARCH)];
  SYSCALL_TABLES.forEach((t, i) => {
    program.push(jeq(t.arch, `a${i}start`));
  });
  program.push(ret(SECCOMP_RET_KILL_PROCESS));
  SYSCALL_TABLES.forEach((t, i) => {
    program.push(...archSection(t, families, `a${i}`, policy.nestedSandbox === true));
  });
  // Shared exits at the end: classic BPF jumps only forward.
  program.push(labelled("kill", ret(SECCOMP_RET_KILL_PROCESS)));
  program.push(labelled("allow", ret(SECCOMP_RET_ALLOW)));
  program.push(labelled("eperm", ret(retErrno(EPERM))));
  program.push(labelled("enosys", ret(retErrno(ENOSYS))));
  if (program.length > 4096)
    throw new Error(`seccomp: ${program.length} instructions; the kernel allows 4096`);
  return assemble(program);
}

const cached = new Map<boolean, Buffer>();
/**
 * The sandbox's filter, built once per process for each network mode (it never changes): AF_UNIX
 * only, or with `loopbackInet` (network allowlist on) AF_INET/AF_INET6 as well.
 */
export function defaultSeccompFilter(loopbackInet = false): Buffer {
  let filter = cached.get(loopbackInet);
  if (!filter) {
    filter = buildSeccompFilter({ loopbackInet });
    cached.set(loopbackInet, filter);
  }
  return filter;
}
