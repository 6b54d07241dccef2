/**
 * Syscall numbers the seccomp filter needs, per architecture: x86_64 from asm/unistd_64.h, aarch64
 * from asm-generic/unistd.h (checked against the headers of linux-libc-dev 6.1).
 */

export const AUDIT_ARCH_X86_64 = 0xc000003e;
export const AUDIT_ARCH_AARCH64 = 0xc00000b7;
/** x32 syscalls come in on the x86_64 arch with this bit set in nr. */
const X32_SYSCALL_BIT = 0x40000000;

/** Syscall numbers per architecture (x86_64: asm/unistd_64.h; aarch64: asm-generic/unistd.h). */
export interface SyscallTable {
  arch: number;
  /** nr ≥ this is another ABI on the same arch (x32); undefined when there is none. */
  foreignFrom?: number;
  socket: number;
  socketpair: number;
  clone: number;
  clone3: number;
  unshare: number;
  /** Calls denied outright, by name (the name is only for tests and error messages). */
  denied: Record<string, number>;
}

/** Denied on both architectures: mounts, namespaces, tracing, kernel keyrings, BPF, modules, io_uring… */
const DENIED_NAMES = [
  "mount",
  "umount2",
  "pivot_root",
  "chroot",
  "setns",
  "fsopen",
  "fsconfig",
  "fsmount",
  "fspick",
  "move_mount",
  "open_tree",
  "open_tree_attr",
  "mount_setattr",
  "ptrace",
  "process_vm_readv",
  "process_vm_writev",
  "pidfd_getfd",
  "bpf",
  "perf_event_open",
  "userfaultfd",
  "keyctl",
  "add_key",
  "request_key",
  "kexec_load",
  "kexec_file_load",
  "init_module",
  "finit_module",
  "delete_module",
  "open_by_handle_at",
  "name_to_handle_at",
  "io_uring_setup",
  "io_uring_enter",
  "io_uring_register",
  "swapon",
  "swapoff",
  "reboot",
  "syslog",
  "acct",
  "settimeofday",
  "clock_settime",
  "clock_adjtime",
  "adjtimex",
  "quotactl",
  "quotactl_fd",
  "lookup_dcookie",
  "vhangup",
  "nfsservctl",
] as const;

type DeniedName = (typeof DENIED_NAMES)[number];

const X86_64_DENIED: Record<DeniedName, number> & Record<string, number> = {
  mount: 165,
  umount2: 166,
  pivot_root: 155,
  chroot: 161,
  setns: 308,
  fsopen: 430,
  fsconfig: 431,
  fsmount: 432,
  fspick: 433,
  move_mount: 429,
  open_tree: 428,
  open_tree_attr: 467, // Linux 6.15, newer than the headers above
  mount_setattr: 442,
  ptrace: 101,
  process_vm_readv: 310,
  process_vm_writev: 311,
  pidfd_getfd: 438,
  bpf: 321,
  perf_event_open: 298,
  userfaultfd: 323,
  keyctl: 250,
  add_key: 248,
  request_key: 249,
  kexec_load: 246,
  kexec_file_load: 320,
  init_module: 175,
  finit_module: 313,
  delete_module: 176,
  open_by_handle_at: 304,
  name_to_handle_at: 303,
  io_uring_setup: 425,
  io_uring_enter: 426,
  io_uring_register: 427,
  swapon: 167,
  swapoff: 168,
  reboot: 169,
  syslog: 103,
  acct: 163,
  settimeofday: 164,
  clock_settime: 227,
  clock_adjtime: 305,
  adjtimex: 159,
  quotactl: 179,
  quotactl_fd: 443,
  lookup_dcookie: 212,
  vhangup: 153,
  nfsservctl: 180,
  // x86 only: raw I/O port access, and loading a.out libraries.
  iopl: 172,
  ioperm: 173,
  uselib: 134,
};

const AARCH64_DENIED: Record<DeniedName, number> = {
  mount: 40,
  umount2: 39,
  pivot_root: 41,
  chroot: 51,
  setns: 268,
  fsopen: 430,
  fsconfig: 431,
  fsmount: 432,
  fspick: 433,
  move_mount: 429,
  open_tree: 428,
  open_tree_attr: 467,
  mount_setattr: 442,
  ptrace: 117,
  process_vm_readv: 270,
  process_vm_writev: 271,
  pidfd_getfd: 438,
  bpf: 280,
  perf_event_open: 241,
  userfaultfd: 282,
  keyctl: 219,
  add_key: 217,
  request_key: 218,
  kexec_load: 104,
  kexec_file_load: 294,
  init_module: 105,
  finit_module: 273,
  delete_module: 106,
  open_by_handle_at: 265,
  name_to_handle_at: 264,
  io_uring_setup: 425,
  io_uring_enter: 426,
  io_uring_register: 427,
  swapon: 224,
  swapoff: 225,
  reboot: 142,
  syslog: 116,
  acct: 89,
  settimeofday: 170,
  clock_settime: 112,
  clock_adjtime: 266,
  adjtimex: 171,
  quotactl: 60,
  quotactl_fd: 443,
  lookup_dcookie: 18,
  vhangup: 58,
  nfsservctl: 42,
};

export const SYSCALL_TABLES: readonly SyscallTable[] = [
  {
    arch: AUDIT_ARCH_X86_64,
    foreignFrom: X32_SYSCALL_BIT,
    socket: 41,
    socketpair: 53,
    clone: 56,
    clone3: 435,
    unshare: 272,
    denied: X86_64_DENIED,
  },
  {
    arch: AUDIT_ARCH_AARCH64,
    socket: 198,
    socketpair: 199,
    clone: 220,
    clone3: 435,
    unshare: 97,
    denied: AARCH64_DENIED,
  },
];
