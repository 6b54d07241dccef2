import { describe, expect, it } from "vitest";
import {
  AF_INET,
  AF_INET6,
  AF_UNIX,
  AUDIT_ARCH_AARCH64,
  AUDIT_ARCH_X86_64,
  buildSeccompFilter,
  defaultSeccompFilter,
  ENOSYS,
  EPERM,
  retErrno,
  SECCOMP_RET_ALLOW,
  SECCOMP_RET_KILL_PROCESS,
  SYSCALL_TABLES,
} from "./seccomp.js";

/** A classic-BPF interpreter for the instructions the generator emits, over a `seccomp_data`. */
function run(filter: Buffer, data: { arch: number; nr: number; args?: number[] }): number {
  const mem = Buffer.alloc(64);
  mem.writeInt32LE(data.nr, 0);
  mem.writeUInt32LE(data.arch, 4);
  (data.args ?? []).forEach((a, i) => {
    mem.writeBigUInt64LE(BigInt(a), 16 + 8 * i);
  });
  let acc = 0;
  for (let pc = 0; pc < filter.length / 8; pc++) {
    const code = filter.readUInt16LE(pc * 8);
    const jt = filter.readUInt8(pc * 8 + 2);
    const jf = filter.readUInt8(pc * 8 + 3);
    const k = filter.readUInt32LE(pc * 8 + 4);
    switch (code) {
      case 0x20:
        acc = mem.readUInt32LE(k);
        break;
      case 0x15:
        pc += acc === k ? jt : jf;
        break;
      case 0x35:
        pc += acc >= k ? jt : jf;
        break;
      case 0x45:
        pc += (acc & k) !== 0 ? jt : jf;
        break;
      case 0x06:
        return k;
      default:
        throw new Error(`unexpected opcode 0x${code.toString(16)} at ${pc}`);
    }
  }
  throw new Error("fell off the end of the program");
}

const filter = buildSeccompFilter();
const X86 = SYSCALL_TABLES[0]!;
const ARM = SYSCALL_TABLES[1]!;
const AF_NETLINK = 16;
const AF_PACKET = 17;
const AF_VSOCK = 40;
const CLONE_NEWUSER = 0x10000000;
const CLONE_NEWNET = 0x40000000;
const SIGCHLD = 17;
const THREAD_FLAGS = 0x3d0f00; // what glibc's pthread_create passes to clone

describe("seccomp filter", () => {
  it("is a whole number of 8-byte instructions within the kernel's limit", () => {
    expect(filter.length % 8).toBe(0);
    expect(filter.length / 8).toBeLessThanOrEqual(4096);
  });

  for (const t of [X86, ARM]) {
    const name = t.arch === AUDIT_ARCH_X86_64 ? "x86_64" : "aarch64";
    describe(name, () => {
      const call = (nr: number, ...args: number[]) => run(filter, { arch: t.arch, nr, args });

      it("allows ordinary calls (read, write, getpid…)", () => {
        for (const nr of [0, 1, 2, 3, 39, 60, 63, 64, 172, 231]) {
          if (
            Object.values(t.denied).includes(nr) ||
            [t.socket, t.socketpair, t.clone, t.unshare].includes(nr)
          )
            continue;
          expect(call(nr)).toBe(SECCOMP_RET_ALLOW);
        }
      });

      it("allows AF_UNIX sockets and refuses inet, inet6, netlink, packet and vsock with EPERM", () => {
        expect(call(t.socket, AF_UNIX, 1, 0)).toBe(SECCOMP_RET_ALLOW);
        expect(call(t.socketpair, AF_UNIX, 1, 0)).toBe(SECCOMP_RET_ALLOW);
        for (const family of [AF_INET, AF_INET6, AF_NETLINK, AF_PACKET, AF_VSOCK, 38, 44])
          expect(call(t.socket, family, 1, 0)).toBe(retErrno(EPERM));
      });

      it("looks only at the low word of the family, as the kernel does for an int", () => {
        expect(call(t.socket, 2 ** 32 + AF_UNIX)).toBe(SECCOMP_RET_ALLOW);
        expect(call(t.socket, 2 ** 32 + AF_INET)).toBe(retErrno(EPERM));
      });

      it("lets fork and threads through clone but refuses new namespaces in clone and unshare", () => {
        expect(call(t.clone, SIGCHLD)).toBe(SECCOMP_RET_ALLOW);
        expect(call(t.clone, THREAD_FLAGS)).toBe(SECCOMP_RET_ALLOW);
        expect(call(t.clone, CLONE_NEWUSER | SIGCHLD)).toBe(retErrno(EPERM));
        expect(call(t.unshare, CLONE_NEWUSER)).toBe(retErrno(EPERM));
        expect(call(t.unshare, CLONE_NEWNET)).toBe(retErrno(EPERM));
        expect(call(t.unshare, 0x00000400 /* CLONE_FS */)).toBe(SECCOMP_RET_ALLOW);
      });

      it("answers clone3 with ENOSYS so libc falls back to clone", () => {
        expect(call(t.clone3)).toBe(retErrno(ENOSYS));
      });

      it("refuses mount, ptrace, bpf, keyctl, io_uring and the rest with EPERM", () => {
        for (const key of [
          "mount",
          "umount2",
          "pivot_root",
          "ptrace",
          "bpf",
          "keyctl",
          "add_key",
          "io_uring_setup",
        ])
          expect(call(t.denied[key]!)).toBe(retErrno(EPERM));
        for (const nr of Object.values(t.denied)) expect(call(nr)).toBe(retErrno(EPERM));
      });
    });
  }

  it("kills a process calling from another ABI: i386 on x86_64, or x32", () => {
    const AUDIT_ARCH_I386 = 0x40000003;
    expect(run(filter, { arch: AUDIT_ARCH_I386, nr: 0 })).toBe(SECCOMP_RET_KILL_PROCESS);
    expect(run(filter, { arch: AUDIT_ARCH_X86_64, nr: 0x40000000 + 41, args: [AF_UNIX] })).toBe(
      SECCOMP_RET_KILL_PROCESS,
    );
    expect(run(filter, { arch: AUDIT_ARCH_AARCH64, nr: 0x40000000 })).toBe(SECCOMP_RET_ALLOW);
  });

  it("with loopbackInet (network allowlist on) allows inet and inet6 but still refuses vsock, netlink and packet", () => {
    for (const strict of [
      buildSeccompFilter(),
      buildSeccompFilter({ loopbackInet: false }),
      defaultSeccompFilter(),
    ])
      for (const family of [AF_INET, AF_INET6])
        expect(run(strict, { arch: AUDIT_ARCH_X86_64, nr: X86.socket, args: [family] })).toBe(
          retErrno(EPERM),
        );
    for (const proxied of [buildSeccompFilter({ loopbackInet: true }), defaultSeccompFilter(true)]) {
      for (const t of [X86, ARM]) {
        const call = (nr: number, family: number) => run(proxied, { arch: t.arch, nr, args: [family, 1, 0] });
        for (const family of [AF_UNIX, AF_INET, AF_INET6])
          expect(call(t.socket, family)).toBe(SECCOMP_RET_ALLOW);
        for (const family of [AF_NETLINK, AF_PACKET, AF_VSOCK, 38, 44])
          expect(call(t.socket, family)).toBe(retErrno(EPERM));
        // The rest of the policy does not move: no new namespaces, no ptrace.
        expect(call(t.unshare, CLONE_NEWNET)).toBe(retErrno(EPERM));
        expect(call(t.denied.ptrace!, 0)).toBe(retErrno(EPERM));
      }
    }
    expect(defaultSeccompFilter(true)).not.toEqual(defaultSeccompFilter());
  });

  it("lets a nested sandbox (Chromium's) make namespaces and chroot, and nothing else more", () => {
    const nested = buildSeccompFilter({ loopbackInet: true, nestedSandbox: true });
    for (const t of [X86, ARM]) {
      const call = (nr: number, arg = 0) => run(nested, { arch: t.arch, nr, args: [arg, 0, 0] });
      expect(call(t.unshare, CLONE_NEWNET)).toBe(SECCOMP_RET_ALLOW);
      expect(call(t.clone, CLONE_NEWNET)).toBe(SECCOMP_RET_ALLOW);
      expect(call(t.denied.chroot!)).toBe(SECCOMP_RET_ALLOW);
      for (const name of ["ptrace", "mount", "setns", "bpf", "io_uring_setup", "keyctl"])
        expect(call(t.denied[name]!)).toBe(retErrno(EPERM));
      expect(call(t.socket, AF_VSOCK)).toBe(retErrno(EPERM));
      expect(call(t.socket, AF_INET)).toBe(SECCOMP_RET_ALLOW);
      const netlink = (protocol: number) =>
        run(nested, { arch: t.arch, nr: t.socket, args: [AF_NETLINK, 3, protocol] });
      expect(netlink(0)).toBe(SECCOMP_RET_ALLOW); // NETLINK_ROUTE
      for (const protocol of [9, 15]) expect(netlink(protocol)).toBe(retErrno(EPERM)); // audit, uevent
    }
  });

  it("can allow inet sockets for a future loopback-only policy", () => {
    const loose = buildSeccompFilter({ socketFamilies: [AF_UNIX, AF_INET, AF_INET6] });
    expect(run(loose, { arch: AUDIT_ARCH_X86_64, nr: X86.socket, args: [AF_INET] })).toBe(SECCOMP_RET_ALLOW);
    expect(run(loose, { arch: AUDIT_ARCH_X86_64, nr: X86.socket, args: [AF_VSOCK] })).toBe(retErrno(EPERM));
  });
});
