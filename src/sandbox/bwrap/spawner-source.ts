/**
 * The spawner: one small `python3 -I -S` process per acilab process that forks every sandbox's bwrap,
 * so the harness — hundreds of MB, whose fork(2) copies all its page tables (measured: /bin/true from
 * Node takes 14 ms at 42 MB RSS and 170 ms at 560 MB on this VM) — never forks. A request (one JSON
 * line) names the program, the files to write 0 into to join the sandbox's cgroup, the rlimits, the uid
 * and which of the child's fds are pipes; the child does all of that in-process and execs bwrap, with
 * no shell and no setpriv in between. The reply names the spawner's own ends of the pipes, which the
 * harness opens through /proc/<spawner>/fd (an anonymous pipe opens like a FIFO) before it sends
 * "release" and the spawner closes them. It reports each child's exit, and dies with the harness
 * (PR_SET_PDEATHSIG); bwrap --die-with-parent then takes every sandbox with it.
 */
export const SPAWNER_SOURCE = String.raw`
import base64, ctypes, fcntl, json, os, resource, select, signal, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG: go when the harness goes
if os.getppid() != int(sys.argv[1]):
    sys.exit(0)
# Whatever the harness inherited and left open (a CI runner's pipe) must not reach a sandbox.
for name in os.listdir("/proc/self/fd"):
    fd = int(name)
    if fd > 2:
        try:
            os.set_inheritable(fd, False)
        except OSError:
            pass
LIMITS = {"cpu": resource.RLIMIT_CPU, "fsize": resource.RLIMIT_FSIZE, "as": resource.RLIMIT_AS,
          "nofile": resource.RLIMIT_NOFILE, "core": resource.RLIMIT_CORE}
FAILED = b"acilab sandbox wrapper: "
held = {}
children = set()
wake_r, wake_w = os.pipe()
os.set_blocking(wake_w, False)
signal.set_wakeup_fd(wake_w)
signal.signal(signal.SIGCHLD, lambda s, f: None)

def send(obj):
    data = (json.dumps(obj) + "\n").encode()
    while data:
        data = data[os.write(1, data):]

def child(r, ends, stderr_end):
    try:
        os.setpgid(0, 0)  # its own process group, what a timeout kills (the parent sets it too)
        os.chdir("/")
        for path in r["join"]:
            fd = os.open(path, os.O_WRONLY)
            try:
                os.write(fd, b"0")
            except OSError as e:
                raise OSError(e.errno, "could not join the sandbox's cgroup through %s: %s" % (path, e.strerror))
            finally:
                os.close(fd)
        # Out of the way first (a pipe may sit on another's target), then into place; before the
        # rlimits, since RLIMIT_NOFILE may be below 100.
        high = [(target, fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 100)) for target, fd in ends]
        for target, fd in high:
            os.dup2(fd, target)
        for name, value in r["rlimits"].items():
            resource.setrlimit(LIMITS[name], (value, value))
        if r["uid"] is not None:
            os.setgroups([])
            os.setgid(r["gid"])
            os.setuid(r["uid"])
        os.execvpe(r["argv"][0], r["argv"], r["env"])
    except BaseException as e:
        try:
            os.write(stderr_end, FAILED + str(e).encode() + b"\n")
        finally:
            os._exit(125)

def spawn(r):
    ends, mine, keep = [], {}, []
    for target, direction in r["pipes"].items():
        rd, wr = os.pipe()
        theirs, ours = (rd, wr) if direction == "r" else (wr, rd)
        ends.append((int(target), theirs))
        mine[target] = ours
        keep += [rd, wr]
    if "seccomp" in r:
        rd, wr = os.pipe()
        os.write(wr, base64.b64decode(r["seccomp"]["data"]))
        os.close(wr)
        ends.append((r["seccomp"]["fd"], rd))
    stderr_end = dict(ends).get(2, 2)
    pid = os.fork()
    if pid == 0:
        child(r, ends, stderr_end)
    # Set here as well, so the group exists by the time the harness reads the reply and may kill it.
    try:
        os.setpgid(pid, pid)
    except OSError:
        pass  # the child got there first and has exec'd
    children.add(pid)
    for _, fd in ends:
        if fd not in keep:
            os.close(fd)  # the seccomp pipe's read end
    # Both ends of each pipe stay open here until the harness has opened its own (release): a pipe
    # with no reader left cannot be opened for writing, and one with no writer would read as empty.
    held[pid] = keep
    send({"id": r["id"], "pid": pid, "fds": mine})

def reap():
    while children:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        children.discard(pid)
        if os.WIFSIGNALED(status):
            send({"exit": pid, "code": None, "signal": signal.Signals(os.WTERMSIG(status)).name})
        else:
            send({"exit": pid, "code": os.WEXITSTATUS(status), "signal": None})

def handle(line):
    r = json.loads(line)
    if r["op"] == "spawn":
        try:
            spawn(r)
        except OSError as e:
            send({"id": r["id"], "error": str(e)})
    elif r["op"] == "release":
        for fd in held.pop(r["pid"], []):
            os.close(fd)

buf = b""
while True:
    ready, _, _ = select.select([0, wake_r], [], [])
    if wake_r in ready:
        try:
            os.read(wake_r, 512)
        except BlockingIOError:
            pass
        reap()
    if 0 in ready:
        data = os.read(0, 65536)
        if not data:
            for pid in list(children):
                try:
                    os.killpg(pid, signal.SIGKILL)
                except OSError:
                    pass
            sys.exit(0)
        buf += data
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            handle(line)
        reap()
`;
