/** Where the proxy's host directory appears inside the sandbox. */
export const PROXY_MOUNT = "/run/acilab-proxy";
/**
 * The TCP port of the proxy inside the sandbox. The sandbox's loopback is its own network namespace,
 * so nothing else listens there; a fixed port keeps HTTP_PROXY the same in every sandbox and every
 * log. 3128 is the port HTTP proxies conventionally use.
 */
export const PROXY_PORT = 3128;
export const PROXY_URL = `http://127.0.0.1:${PROXY_PORT}`;
/** The interpreter of the relay: the sandbox's /usr is the host's, and Debian puts python3 here. */
export const RELAY_PYTHON = "/usr/bin/python3";

/**
 * The relay that makes the Unix-socket proxy reachable at 127.0.0.1:PROXY_PORT inside the sandbox.
 * It binds the port first (so the command can connect from its first instruction: early connections
 * wait in the backlog), then double-forks the relay into a daemon and `exec`s the command in place:
 * the command keeps its pid, stdin/stdout/stderr, fds 3 and 4, exit status and signals, and is not
 * the relay's parent, so a shell's bare `wait` does not wait for it. The relay dies with the sandbox's
 * pid namespace when the command exits. One thread, non-blocking sockets: a program opening many
 * connections costs no processes against the pids limit.
 *
 * Python starts with SIGPIPE and SIGXFSZ ignored, and an exec keeps ignored signals ignored: both go
 * back to their defaults before the exec (`yes | head` must end by SIGPIPE, not by an EPIPE error).
 * A missing command is reported in bwrap's own words, so the model reads the same error either way.
 */
export const FORWARDER_PY = `import os, selectors, signal, socket, sys
port, path, argv = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
lsock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
lsock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
lsock.bind(("127.0.0.1", port))
lsock.listen(128)

def relay():
    sel = selectors.DefaultSelector()
    lsock.setblocking(False)
    sel.register(lsock, selectors.EVENT_READ)
    state = {}  # socket -> [peer, bytes waiting to be written to it, still readable]

    def update(s):
        peer, pending, readable = state[s]
        mask = selectors.EVENT_WRITE if pending else 0
        if readable and not state[peer][1]:
            mask |= selectors.EVENT_READ
        if mask:
            try:
                sel.modify(s, mask)
            except KeyError:
                sel.register(s, mask)
        elif s in sel.get_map():
            sel.unregister(s)
        if not readable and not pending and not state[peer][2] and not state[peer][1]:
            for x in (s, peer):
                if x in sel.get_map():
                    sel.unregister(x)
                state.pop(x, None)
                x.close()

    def drop(s):
        peer = state[s][0]
        for x in (s, peer):
            if x in sel.get_map():
                sel.unregister(x)
            state.pop(x, None)
            x.close()

    while True:
        for key, events in sel.select():
            s = key.fileobj
            if s is lsock:
                try:
                    conn, _ = lsock.accept()
                except OSError:
                    continue
                up = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                try:
                    up.connect(path)
                except OSError:
                    conn.close()
                    up.close()
                    continue
                conn.setblocking(False)
                up.setblocking(False)
                state[conn] = [up, b"", True]
                state[up] = [conn, b"", True]
                update(conn)
                update(up)
                continue
            if s not in state:
                continue
            peer = state[s][0]
            try:
                if events & selectors.EVENT_WRITE and state[s][1]:
                    n = s.send(state[s][1])
                    state[s][1] = state[s][1][n:]
                    if not state[s][1] and not state[peer][2]:
                        s.shutdown(socket.SHUT_WR)
                if events & selectors.EVENT_READ and state[s][2]:
                    data = s.recv(65536)
                    if data:
                        state[peer][1] += data
                    else:
                        state[s][2] = False
                        if not state[peer][1]:
                            peer.shutdown(socket.SHUT_WR)
            except (BlockingIOError, InterruptedError):
                pass
            except OSError:
                drop(s)
                continue
            update(s)
            if peer in state:
                update(peer)

if os.fork() == 0:
    os.setsid()
    if os.fork() != 0:
        os._exit(0)
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.closerange(3, lsock.fileno())
    os.closerange(lsock.fileno() + 1, 1 << 16)
    try:
        relay()
    finally:
        os._exit(0)
os.wait()
lsock.close()
signal.signal(signal.SIGPIPE, signal.SIG_DFL)
signal.signal(signal.SIGXFSZ, signal.SIG_DFL)
try:
    os.execvp(argv[0], argv)
except OSError as e:
    sys.stderr.write("bwrap: execvp %s: %s\\n" % (argv[0], e.strerror))
    sys.stderr.flush()
    os._exit(1)
`;

/** The argv that runs `argv` behind the relay, inside the sandbox. */
export function forwarderArgv(argv: readonly string[]): string[] {
  // -I: ignore PYTHON* variables and the user site; -S: no site module. The command's environment is
  // passed on untouched by the exec.
  return [
    RELAY_PYTHON,
    "-I",
    "-S",
    "-c",
    FORWARDER_PY,
    String(PROXY_PORT),
    `${PROXY_MOUNT}/proxy.sock`,
    ...argv,
  ];
}

/** The variables that point HTTP clients (pip, npm, curl, urllib, git) at the relay. */
export function proxyEnvironment(): Record<string, string> {
  return {
    HTTP_PROXY: PROXY_URL,
    HTTPS_PROXY: PROXY_URL,
    http_proxy: PROXY_URL,
    https_proxy: PROXY_URL,
    NO_PROXY: "localhost,127.0.0.1",
    no_proxy: "localhost,127.0.0.1",
  };
}
