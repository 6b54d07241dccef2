/**
 * The helper that shows a user's directory to the sandbox uid as its own (idmap.ts), run as root by
 * `python3 -I -S -c` between the cgroup join and the drop to the sandbox uid:
 *
 *   python3 -I -S -c IDMAP_HELPER probe|exec SOURCE TARGET OWNER_UID OWNER_GID SANDBOX_UID SANDBOX_GID [-- ARGV…]
 *
 * 1. a user namespace whose only mapping is "OWNER is SANDBOX" (a child unshares it and waits while
 *    we write its maps and take a descriptor of it);
 * 2. a private mount namespace for this process, / made private first, so nothing propagates to the
 *    host;
 * 3. open_tree(OPEN_TREE_CLONE) of SOURCE — a detached copy of that one mount, its submounts left
 *    out —, mount_setattr(MOUNT_ATTR_IDMAP | NOSUID | NODEV) with that namespace, move_mount over TARGET;
 * 4. `exec`: execv ARGV (setpriv … bwrap …) in this same process, so bwrap inherits the namespace and
 *    its pid, descriptors and cgroup stay the wrapper's; `probe`: exit 0.
 *
 * A failure prints one line after "acilab sandbox wrapper: " and exits 125, which the sandbox reports
 * as a setup failure (launch.ts). The syscall numbers are the same on every architecture (≥ 424 are
 * shared), x86_64 and aarch64 included.
 */
export const IDMAP_HELPER = String.raw`
import ctypes, os, struct, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
SYS_OPEN_TREE, SYS_MOVE_MOUNT, SYS_MOUNT_SETATTR = 428, 429, 442
CLONE_NEWNS, CLONE_NEWUSER = 0x00020000, 0x10000000
MS_REC, MS_PRIVATE = 0x4000, 0x40000
AT_FDCWD, AT_EMPTY_PATH, AT_SYMLINK_NOFOLLOW = -100, 0x1000, 0x100
OPEN_TREE_CLONE, OPEN_TREE_CLOEXEC = 1, os.O_CLOEXEC
MOUNT_ATTR_NOSUID, MOUNT_ATTR_NODEV, MOUNT_ATTR_IDMAP = 0x2, 0x4, 0x100000
MOVE_MOUNT_F_EMPTY_PATH = 0x4

def fail(message):
    sys.stderr.write("acilab sandbox wrapper: " + message + "\n")
    sys.exit(125)

def check(rc, what):
    if rc < 0:
        e = ctypes.get_errno()
        fail("%s failed: %s (errno %d)" % (what, os.strerror(e), e))

mode, source, target = sys.argv[1], os.fsencode(sys.argv[2]), os.fsencode(sys.argv[3])
owner_uid, owner_gid, sandbox_uid, sandbox_gid = map(int, sys.argv[4:8])

ready_r, ready_w = os.pipe()
go_r, go_w = os.pipe()
pid = os.fork()
if pid == 0:
    os.close(ready_r)
    os.close(go_w)
    ok = libc.unshare(CLONE_NEWUSER) == 0
    os.write(ready_w, b"1" if ok else b"0")
    os.read(go_r, 1)
    os._exit(0)
os.close(ready_w)
os.close(go_r)
try:
    if os.read(ready_r, 1) != b"1":
        fail("creating a user namespace for the mapping failed")
    with open("/proc/%d/uid_map" % pid, "w") as f:
        f.write("%d %d 1\n" % (owner_uid, sandbox_uid))
    with open("/proc/%d/gid_map" % pid, "w") as f:
        f.write("%d %d 1\n" % (owner_gid, sandbox_gid))
    userns = os.open("/proc/%d/ns/user" % pid, os.O_RDONLY | os.O_CLOEXEC)
finally:
    os.write(go_w, b"x")
    os.waitpid(pid, 0)

check(libc.unshare(CLONE_NEWNS), "unshare(CLONE_NEWNS)")
check(libc.mount(None, b"/", None, MS_REC | MS_PRIVATE, None), "making the mount namespace private")
tree = libc.syscall(SYS_OPEN_TREE, AT_FDCWD, source, OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_SYMLINK_NOFOLLOW)
check(tree, "open_tree")
attr = struct.pack("QQQQ", MOUNT_ATTR_IDMAP | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV, 0, 0, userns)
check(libc.syscall(SYS_MOUNT_SETATTR, tree, b"", AT_EMPTY_PATH, attr, ctypes.c_size_t(len(attr))),
      "an idmapped mount (mount_setattr MOUNT_ATTR_IDMAP)")
check(libc.syscall(SYS_MOVE_MOUNT, tree, b"", AT_FDCWD, target, MOVE_MOUNT_F_EMPTY_PATH), "move_mount")
os.close(tree)
os.close(userns)
if mode == "probe":
    sys.exit(0)
argv = sys.argv[9:]
try:
    os.execvp(argv[0], argv)
except OSError as e:
    fail("could not run %s: %s" % (argv[0], e.strerror))
`;
