#!/usr/bin/env python3
"""Reference vectors for HAProxy configs as people write them (issue 28), from the real
HAProxy (Debian's package).

Each case is a whole haproxy.cfg: `hash-type` and `balance` set in `defaults`,
`default-server weight` in a backend and in `defaults`, backup servers, `server-template`,
a `listen` section, and two backends of which only the second hashes. A frontend on
loopback sends `GET /?key=K` to the proxy and stamps the server HAProxy chose
(`X-Server: %[srv_name]`); every server is one answering frontend. The file written,
tests/reference/haproxy-configs.txt, holds each config (lines behind `| `) and its answers;
`cargo test` reads each config with the page's own reader and replays the answers, and
never needs haproxy.

    python3 tools/haproxy-config-vectors.py
"""
import importlib.util
import os
import subprocess
import tempfile

# The daemon's start and stop, shared with tools/haproxy-vectors.py.
_spec = importlib.util.spec_from_file_location(
    "haproxy_vectors", os.path.join(os.path.dirname(os.path.abspath(__file__)), "haproxy-vectors.py"))
HAPROXY = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(HAPROXY)

PROXY = 18290
ANSWER = 18291
HEAD = [
    "global", "    maxconn 200",
]
TIMEOUTS = ["    mode http", "    timeout connect 1s", "    timeout client 5s", "    timeout server 5s"]
FRONT = [
    "frontend proxy", f"    bind 127.0.0.1:{PROXY}", "    http-response set-header X-Server %[srv_name]",
    "    default_backend pool",
]
TAIL = [f"frontend answer", f"    bind 127.0.0.1:{ANSWER}", "    http-request return status 200 content-type text/plain string ok"]
A = f"127.0.0.1:{ANSWER}"

CASES = {
    # hash-type and balance in `defaults`: every proxy after it hashes.
    "defaults-hash": ["defaults", *TIMEOUTS, "    balance url_param key", "    hash-type consistent",
                      *FRONT, "backend pool",
                      f"    server a {A} weight 2", f"    server b {A}", f"    server c {A} weight 3", f"    server d {A}"],
    # default-server weight in the backend: the servers after it weigh 5 unless they say.
    "default-server": ["defaults", *TIMEOUTS, *FRONT, "backend pool", "    balance url_param key",
                       "    hash-type consistent", f"    server s1 {A}", "    default-server weight 5",
                       f"    server s2 {A}", f"    server s3 {A} weight 1", f"    server s4 {A}"],
    # default-server in `defaults`, and a second `defaults` that replaces the first.
    "defaults-default-server": ["defaults", *TIMEOUTS, "    default-server weight 7", "defaults", *TIMEOUTS,
                                "    default-server weight 3", "    balance url_param key", "    hash-type consistent",
                                *FRONT, "backend pool", f"    server a {A}", f"    server b {A} weight 1",
                                f"    server c {A}"],
    # Backups listed last, and one disabled active server.
    "backup": ["defaults", *TIMEOUTS, *FRONT, "backend pool", "    balance url_param key",
               "    hash-type consistent sdbm avalanche", f"    server a {A}", f"    server b {A} weight 2 disabled",
               f"    server c {A}", f"    server d {A}", f"    server spare1 {A} backup",
               f"    server spare2 {A} backup weight 4"],
    # server-template: web1..web4 after a plain server, weights from the template line.
    "template": ["defaults", *TIMEOUTS, *FRONT, "backend pool", "    balance url_param key",
                 "    hash-type consistent", f"    server first {A} weight 3",
                 f"    server-template web 4 {A} weight 2", f"    server-template app 2-3 {A}"],
    # A `listen` section is a frontend and a backend in one.
    "listen": ["defaults", *TIMEOUTS, "listen pool", f"    bind 127.0.0.1:{PROXY}",
               "    http-response set-header X-Server %[srv_name]", "    balance url_param key",
               "    hash-type consistent", f"    server x {A}", f"    server y {A} weight 2", f"    server z {A}"],
    # Two backends: the first balances round robin, the second hashes (and is the one used).
    "two-backends": ["defaults", *TIMEOUTS,
                     "frontend proxy", f"    bind 127.0.0.1:{PROXY}", "    http-response set-header X-Server %[srv_name]",
                     "    default_backend hashed", "backend rr", f"    server r1 {A}", f"    server r2 {A}",
                     "backend hashed", "    balance url_param key", "    hash-type consistent",
                     f"    server h1 {A}", f"    server h2 {A} weight 2", f"    server h3 {A}"],
}


def server_chosen(response):
    """The server HAProxy chose, as the proxy stamped it."""
    response.read()
    return response.getheader("X-Server")


def run(root, lines, keys):
    path = os.path.join(root, "haproxy.cfg")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    subprocess.run(["haproxy", "-c", "-q", "-f", path], check=True)
    return HAPROXY.daemon(root, path, lambda: HAPROXY.ask(keys, PROXY, server_chosen))


def main():
    keys = [f"key-{i}" for i in range(2000)] + ["user:42", "a", "Z9", "session-abc"]
    version = subprocess.run(["haproxy", "-v"], capture_output=True, text=True).stdout.splitlines()[0]
    out = [f"# {version}", "# whole configs (behind '| ') and the server HAProxy chose for each key;"
           " generated by tools/haproxy-config-vectors.py"]
    with tempfile.TemporaryDirectory() as root:
        for name, body in CASES.items():
            lines = HEAD + body + TAIL
            answers = run(root, lines, keys)
            assert all(answers), f"{name}: a key got no server"
            out.append(f"config {name}")
            out.extend(f"| {line}" for line in lines)
            out.extend(f"{k} {a}" for k, a in zip(keys, answers))
    path = "tests/reference/haproxy-configs.txt"
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")
    print(f"wrote {path}: {len(CASES)} configs x {len(keys)} keys")


if __name__ == "__main__":
    main()
