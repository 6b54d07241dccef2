/**
 * The workspace helper: one long-lived `python3 -I -S` process per acilab process that makes the
 * host-side calls Node cannot make itself, for JSON requests on its stdin (one a line, answered by id):
 *
 * - `mount`, `umount`: mount(2) and umount2(2) through ctypes (~0.5 ms, against ~7–16 ms for a
 *   util-linux process start, more from a large harness: fork copies its page tables);
 * - `overlay`: an overlay whose layers are passed as descriptors (`lowerdir=/proc/self/fd/N`), so its
 *   options — which every process that can see the mount reads in /proc/self/mountinfo, a sandbox
 *   included — name no host path;
 * - `image`: a sparse ext4 image of a fixed size, formatted (or copied from a formatted template) and
 *   loop-mounted (autoclear): a checkout's size cap on disk;
 * - `lock`, `unlock`: flock(2) on a file, held by this process for as long as it lives. It lives as
 *   long as the harness (it exits when its stdin closes), and flock works across pid namespaces;
 * - `remove`: delete a tree with openat-style traversal (dir_fd, one descriptor held at a time), so no
 *   depth is too deep, no symbolic link is followed and no mount point is crossed.
 *
 * `image` and `remove` can take a while: each runs in a thread, so mounts are not queued behind them.
 */
export const HELPER_SOURCE = String.raw`
import ctypes, errno, fcntl, json, os, stat, struct, subprocess, sys, threading
libc = ctypes.CDLL(None, use_errno=True)
libc.mount.argtypes = (ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_char_p)
libc.umount2.argtypes = (ctypes.c_char_p, ctypes.c_int)
enc = lambda s: None if s is None else os.fsencode(s)
DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
SYSTEM = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LC_ALL": "C"}
LOOP_SET_FD, LOOP_CLR_FD, LOOP_SET_STATUS64, LOOP_CONFIGURE, LOOP_CTL_GET_FREE = 0x4C00, 0x4C01, 0x4C04, 0x4C0A, 0x4C82
LO_FLAGS_AUTOCLEAR = 4
LOOP_ATTEMPTS = 16  # another process may take the free device first
out = threading.Lock()
held = set()

def check(rc):
    if rc != 0:
        e = ctypes.get_errno()
        raise OSError(e, os.strerror(e))

def mount(r):
    check(libc.mount(enc(r["source"]), enc(r["target"]), enc(r["fstype"]), r["flags"], enc(r["data"])))

def umount(r):
    check(libc.umount2(enc(r["target"]), r["flags"]))

def overlay(r):
    fds = []
    try:
        for key in ("lower", "upper", "work"):
            fds.append(os.open(r[key], DIR))
        data = "lowerdir=/proc/self/fd/%d,upperdir=/proc/self/fd/%d,workdir=/proc/self/fd/%d" % tuple(fds)
        if r["options"]:
            data += "," + r["options"]
        check(libc.mount(b"overlay", enc(r["target"]), b"overlay", r["flags"], enc(data)))
    finally:
        for fd in fds:
            os.close(fd)

def configure(dev, image):
    info = bytearray(232)  # struct loop_info64; lo_flags is at offset 52
    struct.pack_into("=I", info, 52, LO_FLAGS_AUTOCLEAR)
    try:
        fcntl.ioctl(dev, LOOP_CONFIGURE, struct.pack("=II", image, 0) + bytes(info) + bytes(64))
    except OSError as e:
        if e.errno not in (errno.EINVAL, errno.ENOTTY):
            raise
        fcntl.ioctl(dev, LOOP_SET_FD, image)  # kernels before 5.8
        try:
            fcntl.ioctl(dev, LOOP_SET_STATUS64, bytes(info))
        except OSError:
            fcntl.ioctl(dev, LOOP_CLR_FD)
            raise

attaching = threading.Lock()  # our own threads would otherwise all be handed the same free device

def attach(image):
    with attaching:
        ctl = os.open("/dev/loop-control", os.O_RDWR | os.O_CLOEXEC)
        try:
            for _ in range(LOOP_ATTEMPTS):
                n = fcntl.ioctl(ctl, LOOP_CTL_GET_FREE)
                dev = os.open("/dev/loop%d" % n, os.O_RDWR | os.O_CLOEXEC)
                try:
                    configure(dev, image)
                    return dev, n
                except OSError as e:
                    os.close(dev)
                    if e.errno != errno.EBUSY:
                        raise
            raise OSError(errno.EBUSY, "other processes took every free loop device first")
        finally:
            os.close(ctl)

def mkfs():
    for path in ("/usr/sbin/mkfs.ext4", "/sbin/mkfs.ext4"):
        if os.path.exists(path):
            return path
    raise OSError(errno.ENOENT, "mkfs.ext4 is not installed (e2fsprogs)")

def mkfs_into(fd, size):
    os.ftruncate(fd, size)
    # No journal (the layer is thrown away), no room reserved for growing it (resize_inode), no
    # inode-table zeroing: the image stays sparse, ~170 KiB of metadata whatever its size.
    done = subprocess.run([mkfs(), "-q", "-F", "-O", "^has_journal,^resize_inode", "-E",
                           "lazy_itable_init=1,nodiscard", "-m", "0", "/proc/self/fd/%d" % fd],
                          env=SYSTEM, pass_fds=(fd,), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE)
    if done.returncode != 0:
        lines = done.stderr.decode(errors="replace").strip().splitlines() or ["exit %d" % done.returncode]
        raise OSError(errno.EIO, "mkfs.ext4 failed: " + lines[0])

templates = {}
templates_lock = threading.Lock()

def copy_sparse(src, dst, size):
    os.ftruncate(dst, size)
    offset = 0
    while True:
        try:
            data = os.lseek(src, offset, os.SEEK_DATA)
        except OSError as e:
            if e.errno == errno.ENXIO:
                return
            raise
        hole = os.lseek(src, data, os.SEEK_HOLE)
        while data < hole:
            data += os.copy_file_range(src, dst, hole - data, data, data)
        offset = hole

def from_template(fd, template, size):
    # One mkfs per template (size), then each image is a copy of its few data blocks: ~1 ms, not ~10.
    with templates_lock:
        lock = templates.setdefault(template, threading.Lock())
    with lock:
        if not os.path.exists(template):
            new = os.open(template + ".new", os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
            try:
                mkfs_into(new, size)
            finally:
                os.close(new)
            os.rename(template + ".new", template)
    src = os.open(template, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    try:
        copy_sparse(src, fd, size)
    finally:
        os.close(src)

def image(r):
    fd = os.open(r["image"], os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        if r.get("template"):
            from_template(fd, r["template"], r["bytes"])
        else:
            mkfs_into(fd, r["bytes"])
        dev, n = attach(fd)
        try:
            check(libc.mount(enc("/dev/loop%d" % n), enc(r["target"]), b"ext4", r["flags"], enc(r["options"])))
        except OSError:
            fcntl.ioctl(dev, LOOP_CLR_FD)
            raise
        finally:
            os.close(dev)  # the mount holds the device now; it detaches itself at the last unmount
    finally:
        os.close(fd)

def lock(r):
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC | (os.O_CREAT if r["create"] else 0)
    fd = os.open(r["path"], flags, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        # Still the file at that path? A sweeper may have removed it between our open and our flock.
        a, b = os.fstat(fd), os.stat(r["path"], follow_symlinks=False)
        if (a.st_dev, a.st_ino) != (b.st_dev, b.st_ino):
            raise OSError(errno.ESTALE, "the lock file was replaced while it was being taken")
    except BaseException:
        os.close(fd)
        raise
    held.add(fd)
    return {"lock": fd}

def unlock(r):
    if r["lock"] in held:
        held.discard(r["lock"])
        os.close(r["lock"])

def writable(fd):
    # Not root (a copy checkout under a user namespace): a directory the agent made read-only.
    os.chmod("/proc/self/fd/%d" % fd, 0o700)

def open_dir(parent, name, dev):
    try:
        fd = os.open(name, DIR, dir_fd=parent)
    except PermissionError:
        probe = os.open(name, os.O_PATH | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=parent)
        try:
            writable(probe)
        finally:
            os.close(probe)
        fd = os.open(name, DIR, dir_fd=parent)
    st = os.fstat(fd)
    if st.st_dev != dev:
        os.close(fd)
        raise OSError(errno.EXDEV, "%s is a mount point (another filesystem); it is left in place" % name)
    return fd, st

def unlink(fd, name, is_dir=False, inside=True):
    try:
        os.rmdir(name, dir_fd=fd) if is_dir else os.unlink(name, dir_fd=fd)
    except PermissionError:
        if not inside:  # the tree's own parent is not ours to chmod
            raise
        writable(fd)
        os.rmdir(name, dir_fd=fd) if is_dir else os.unlink(name, dir_fd=fd)

def remove(r):
    parent_path, name = os.path.split(r["path"].rstrip("/"))
    parent = os.open(parent_path or "/", DIR)
    try:
        try:
            top = os.stat(name, dir_fd=parent, follow_symlinks=False)
        except FileNotFoundError:
            return
        if not stat.S_ISDIR(top.st_mode):
            unlink(parent, name, inside=False)
            return
        fd, st = open_dir(parent, name, top.st_dev)
        # One frame per level: the directory's inode, its subdirectories still to remove, its name.
        frames = [[st.st_ino, None, name]]
        try:
            while True:
                frame = frames[-1]
                if frame[1] is None:
                    with os.scandir(fd) as it:
                        names = [(e.name, e.is_dir(follow_symlinks=False)) for e in it]
                    frame[1] = [n for n, d in names if d]
                    for n, d in names:
                        if not d:
                            unlink(fd, n)
                if frame[1]:
                    child = frame[1].pop()
                    sub, sst = open_dir(fd, child, top.st_dev)
                    os.close(fd)
                    fd = sub
                    frames.append([sst.st_ino, None, child])
                    continue
                if len(frames) == 1:
                    break
                done = frames.pop()
                up = os.open("..", DIR, dir_fd=fd)
                ust = os.fstat(up)
                if ust.st_ino != frames[-1][0] or ust.st_dev != top.st_dev:
                    os.close(up)
                    raise OSError(errno.ESTALE, "the tree was moved while it was being removed")
                os.close(fd)
                fd = up
                unlink(fd, done[2], True)
        finally:
            os.close(fd)
        unlink(parent, name, True, inside=False)
    finally:
        os.close(parent)

OPS = {"mount": mount, "umount": umount, "overlay": overlay, "lock": lock, "unlock": unlock}
SLOW = {"image": image, "remove": remove}

def serve(r, fn):
    try:
        reply = {"id": r["id"], "errno": 0, "error": ""}
        reply.update(fn(r) or {})
    except OSError as e:
        reply = {"id": r["id"], "errno": e.errno or errno.EIO, "error": e.strerror or str(e)}
    except Exception as e:
        reply = {"id": r["id"], "errno": errno.EIO, "error": "%s: %s" % (type(e).__name__, e)}
    with out:
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()

def unknown(r):
    raise OSError(errno.ENOSYS, "unknown request %r" % r["op"])

for line in sys.stdin:
    r = json.loads(line)
    if r["op"] in SLOW:
        threading.Thread(target=serve, args=(r, SLOW[r["op"]])).start()
    else:
        serve(r, OPS.get(r["op"], unknown))
`;
