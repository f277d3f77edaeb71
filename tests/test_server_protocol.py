"""The served simulator at the socket level: whatever bytes arrive, the answer is Notion-shaped
JSON with the right status, or a prompt close; idle and slow connections are closed after the
idle timeout; the server's threads and memory come back to their baseline; nothing reaches its
stderr.

One ``python -m lab serve`` process serves the whole module, so its stderr, thread count and
memory are those of a real server, not of the test process.
"""

from __future__ import annotations

import json
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from lab.simulator.simulator import MAX_BODY_BYTES

TOKEN = "ntn_protocol_suite_secret"
IDLE = 1.0  # the server's --idle-timeout: short, so the slow-client cases take seconds
AUTH = f"Authorization: Bearer {TOKEN}\r\nNotion-Version: 2026-03-11\r\n".encode()


@dataclass
class Server:
    process: subprocess.Popen
    address: tuple[str, int]
    stdout: list[str] = field(default_factory=list)
    stderr: list[str] = field(default_factory=list)

    def status(self, name: str) -> int:
        """A number from /proc/<pid>/status: ``Threads`` or ``VmRSS`` (kB)."""
        text = Path(f"/proc/{self.process.pid}/status").read_text()
        return int(re.search(rf"^{name}:\s+(\d+)", text, re.M).group(1))


@pytest.fixture(scope="module")
def server():
    process = subprocess.Popen([sys.executable, "-m", "lab", "serve", "--port", "0", "--token", TOKEN,
                                "--idle-timeout", str(IDLE), "--verbose"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    banner = process.stdout.readline()
    host, port = re.search(r"http://([\d.]+):(\d+)", banner).groups()
    served = Server(process, (host, int(port)), [banner])
    readers = [threading.Thread(target=lines.extend, args=(stream,), daemon=True)  # --verbose prints a line
               for lines, stream in ((served.stdout, process.stdout), (served.stderr, process.stderr))]
    for reader in readers:
        reader.start()
    try:
        yield served
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=20)
        for reader in readers:
            reader.join(timeout=5)
    assert process.returncode == 0
    assert served.stderr == [], "the server wrote to stderr:\n" + "".join(served.stderr)


# ---------------------------------------------------------------------- speaking raw HTTP


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes

    def error(self) -> dict:
        assert self.headers["content-type"].startswith("application/json"), self.headers
        parsed = json.loads(self.body)
        assert parsed["object"] == "error" and parsed["status"] == self.status, parsed
        return parsed


def _parse(data: bytes, head_only: bool = False) -> list[Answer]:
    """Every complete answer in ``data``, in order."""
    answers = []
    while data:
        head, sep, rest = data.partition(b"\r\n\r\n")
        assert sep, f"an incomplete answer: {data[:200]!r}"
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
        if status == 100:
            data = rest
            continue
        size = 0 if head_only else int(headers["content-length"])
        answers.append(Answer(status, headers, rest[:size]))
        data = rest[size:]
    return answers


def exchange(server: Server, data: bytes, *, within: float = 5.0, shut_write: bool = False,
             head_only: bool = False) -> tuple[list[Answer], float]:
    """Send ``data`` on a fresh connection, read until the server closes it; the answers and how
    long the server took to close."""
    start = time.monotonic()
    with socket.create_connection(server.address, timeout=within) as sock:
        sock.sendall(data)
        if shut_write:
            sock.shutdown(socket.SHUT_WR)
        received = b""
        while chunk := sock.recv(65_536):
            received += chunk
    return _parse(received, head_only), time.monotonic() - start


def request(method: str, path: str | bytes, body: bytes | None = None, extra: bytes = b"",
            close: bool = True) -> bytes:
    target = path if isinstance(path, bytes) else path.encode()
    head = method.encode() + b" " + target + b" HTTP/1.1\r\nHost: lab\r\n" + AUTH + extra
    if body is not None:
        head += f"Content-Length: {len(body)}\r\n".encode()
    if close:
        head += b"Connection: close\r\n"
    return head + b"\r\n" + (body or b"")


def chunked(*pieces: bytes) -> bytes:
    return b"".join(b"%x\r\n%s\r\n" % (len(piece), piece) for piece in pieces) + b"0\r\n\r\n"


# ---------------------------------------------------------------------- framing of bodies

TE = b"Transfer-Encoding: chunked\r\n"


@pytest.mark.slow
def test_a_chunked_body_is_read_as_the_body(server) -> None:
    body = chunked(b'{"query": "', b"no page has this title", b'"}')
    (answer,), _ = exchange(server, request("POST", "/v1/search", extra=TE) + body)
    assert answer.status == 200 and json.loads(answer.body)["results"] == []


def test_chunk_extensions_and_trailers_are_accepted(server) -> None:
    body = b'5;name=value\r\n{"que\r\n6\r\nry": "\r\n3\r\nzzz\r\n2\r\n"}\r\n0\r\nX-Trailer: 1\r\n\r\n'
    (answer,), _ = exchange(server, request("POST", "/v1/search", extra=TE) + body)
    assert answer.status == 200 and json.loads(answer.body)["results"] == []


def test_a_request_hidden_in_a_chunked_body_is_never_executed(server) -> None:
    hidden = b"GET /v1/users/me HTTP/1.1\r\nHost: lab\r\n" + AUTH + b"\r\n"
    answers, _ = exchange(server, request("POST", "/v1/search", extra=TE, close=False) + chunked(hidden),
                          shut_write=True)
    assert [a.status for a in answers] == [400] and answers[0].error()["code"] == "invalid_json"


@pytest.mark.parametrize("extra, fragment", [
    (b"Content-Length: 2\r\nContent-Length: 40\r\n", "more than one Content-Length"),
    (b"Content-Length: 5\r\n" + TE, "both Content-Length and Transfer-Encoding"),
    (b"Transfer-Encoding: gzip, chunked\r\n", "only `chunked`"),
    (b"Content-Length: -1\r\n", "whole number"),
    (b"Content-Length: 0x10\r\n", "whole number"),
], ids=["two Content-Length", "Content-Length beside chunked", "gzip coding", "negative length", "hex length"])
def test_ambiguous_or_unsupported_framing_is_refused_and_the_connection_closed(server, extra, fragment) -> None:
    (answer,), _ = exchange(server, request("POST", "/v1/search", extra=extra, close=False) + b"{}", shut_write=True)
    assert answer.status == 400 and fragment in answer.error()["message"]
    assert answer.headers["connection"] == "close"


def test_a_malformed_chunk_size_is_a_400(server) -> None:
    (answer,), _ = exchange(server, request("POST", "/v1/search", extra=TE) + b"zz\r\n{}\r\n0\r\n\r\n")
    assert answer.status == 400 and "chunk size" in answer.error()["message"]


def test_a_chunked_body_over_the_limit_is_refused_with_400_before_it_is_read(server) -> None:
    first = b"%x\r\n" % (MAX_BODY_BYTES + 1)
    (answer,), _ = exchange(server, request("POST", "/v1/search", extra=TE) + first + b"x" * 1_000, shut_write=True)
    assert answer.status == 400 and "too large" in answer.error()["message"]


def test_expect_100_continue_gets_a_continue_then_the_answer(server) -> None:
    (answer,), _ = exchange(server, request("POST", "/v1/search", b"{}", extra=b"Expect: 100-continue\r\n"))
    assert answer.status == 200


# ---------------------------------------------------------------------- methods, versions, sizes


@pytest.mark.parametrize("line, status, code", [
    (b"TRACE /v1/search HTTP/1.1", 400, "invalid_request"),
    (b"OPTIONS /v1/pages/x HTTP/1.1", 400, "invalid_request"),
    (b"OPTIONS * HTTP/1.1", 400, "invalid_request_url"),
    (b"CONNECT example.com:443 HTTP/1.1", 400, "invalid_request_url"),
    (b"BREW /v1/search HTTP/1.1", 400, "invalid_request"),
    (b"GET /v1/users/me HTTP/9.9", 505, "invalid_request"),
    (b"GET /v1/users/me HTTP/2.0", 505, "invalid_request"),
    (b"GET /v1/users/me FOO/1.1", 400, "invalid_request"),
    (b"GET /v1/users/me HTTP/1", 400, "invalid_request"),
    (b"GET /", 400, "invalid_request"),  # an HTTP/0.9 request line
    (b"GET / HTTP/1.1 extra", 400, "invalid_request"),
    (b"\x00\x01\x02\xff", 400, "invalid_request"),
], ids=lambda v: v.decode("latin-1") if isinstance(v, bytes) else str(v))
def test_methods_versions_and_lines_notion_does_not_serve_get_a_json_error(server, line, status, code) -> None:
    answers, seconds = exchange(server, line + b"\r\nHost: lab\r\n" + AUTH + b"Connection: close\r\n\r\n")
    assert [a.status for a in answers] == [status] and answers[0].error()["code"] == code
    assert seconds < IDLE  # answered and closed at once, not held until the timeout


def test_head_gets_the_status_and_headers_of_get_without_a_body(server) -> None:
    (got,), _ = exchange(server, request("GET", "/v1/users/me"))
    (head,), _ = exchange(server, request("HEAD", "/v1/users/me"), head_only=True)
    assert (got.status, head.status, head.body) == (200, 200, b"")
    assert head.headers["content-length"] == got.headers["content-length"]
    (head,), _ = exchange(server, request("HEAD", "/v1/search"), head_only=True)  # a POST route: GET is a 400 too
    assert head.status == 400 and head.body == b"" and head.headers["content-type"].startswith("application/json")


def test_101_headers_get_431(server) -> None:
    many = b"".join(b"X-Filler-%d: y\r\n" % i for i in range(101))
    (answer,), _ = exchange(server, request("GET", "/v1/users/me", extra=many))
    assert answer.status == 431 and answer.error()["code"] == "invalid_request"


def test_a_70_kb_header_line_gets_431(server) -> None:
    (answer,), _ = exchange(server, request("GET", "/v1/users/me", extra=b"X-Big: " + b"a" * 70_000 + b"\r\n"))
    assert answer.status == 431


def test_a_70_kb_request_line_gets_414(server) -> None:
    (answer,), _ = exchange(server, request("GET", "/v1/pages/" + "a" * 70_000), shut_write=True)
    assert answer.status == 414 and answer.error()["code"] == "invalid_request"


def test_a_tls_client_hello_is_told_to_use_plain_http(server) -> None:
    hello = bytes.fromhex("16030100a5010000a10303") + bytes(160)
    answers, seconds = exchange(server, hello)
    assert [a.status for a in answers] == [400] and "http://" in answers[0].error()["message"]
    assert seconds < IDLE


def test_a_path_that_is_not_utf8_or_holds_an_escape_is_a_json_error_and_logged_escaped(server) -> None:
    (answer,), _ = exchange(server, request("GET", b"/v1/pages/\xff\xfe"))
    assert answer.status == 400 and answer.error()["code"] == "validation_error"
    (answer,), _ = exchange(server, request("GET", "/v1/\x1b[31mred"))
    assert answer.status == 400
    time.sleep(0.2)
    logged = [line for line in server.stdout if "red" in line]
    assert logged and "\x1b" not in "".join(logged) and "\\x1b[31mred" in logged[-1]


def test_pipelined_requests_on_one_connection_are_answered_in_order(server) -> None:
    three = request("GET", "/v1/users/me", close=False) + request("POST", "/v1/search", b"{") + b""
    answers, _ = exchange(server, request("GET", "/v1/nowhere", close=False) + three)
    assert [a.status for a in answers] == [400, 200, 400]
    assert [json.loads(a.body).get("code") for a in answers] == ["invalid_request_url", None, "invalid_json"]


# ---------------------------------------------------------------------- idle and slow clients


@pytest.mark.slow
@pytest.mark.parametrize("sent", [
    b"",
    b"GET /v1/users/me HTTP/1.1\r\nHost: lab\r\n",
    b"POST /v1/search HTTP/1.1\r\nHost: lab\r\n" + AUTH + b"Content-Length: 100\r\n\r\n{",
    b"POST /v1/search HTTP/1.1\r\nHost: lab\r\n" + AUTH + TE + b"\r\n5\r\n{}",
], ids=["silent", "half the headers", "half the body", "half a chunked body"])
def test_an_idle_or_slow_connection_is_closed_after_the_idle_timeout(server, sent) -> None:
    answers, seconds = exchange(server, sent, within=IDLE + 5)
    assert IDLE * 0.9 <= seconds < IDLE + 3
    if sent:  # a request had begun: it is told why it ends
        assert [a.status for a in answers] == [408] and "timed out" in answers[0].error()["message"]
    else:
        assert answers == []


@pytest.mark.slow
def test_a_keep_alive_connection_is_closed_once_idle_for_the_timeout(server) -> None:
    with socket.create_connection(server.address, timeout=IDLE + 5) as sock:
        sock.sendall(request("GET", "/v1/users/me", close=False))
        first = sock.recv(65_536)
        start = time.monotonic()
        while sock.recv(65_536):
            pass
        assert IDLE * 0.9 <= time.monotonic() - start < IDLE + 3
    assert _parse(first)[0].status == 200


@pytest.mark.slow
def test_300_idle_or_half_sent_connections_leave_no_thread_or_memory_behind(server) -> None:
    def me() -> int:
        (answer,), _ = exchange(server, request("GET", "/v1/users/me"))
        return answer.status

    for _ in range(20):  # warm up: the first answers allocate what every later one reuses
        me()
    time.sleep(0.3)
    threads, rss = server.status("Threads"), server.status("VmRSS")
    partial = [b"", b"GET /v1/users/me HTTP/1.1\r\nHost: lab\r\n",
               b"POST /v1/search HTTP/1.1\r\nHost: lab\r\n" + AUTH + b"Content-Length: 100\r\n\r\n{"]
    sockets = []
    for i in range(300):
        sock = socket.create_connection(server.address, timeout=IDLE + 10)
        sock.sendall(partial[i % 3])
        sockets.append(sock)
    assert me() == 200  # the server answers others while they hang
    for i, sock in enumerate(sockets):  # each one is closed by the server, with a 408 if it had begun
        with sock:
            received = b""
            while chunk := sock.recv(65_536):
                received += chunk
        assert [a.status for a in _parse(received)] == ([408] if partial[i % 3] else [])
    deadline = time.monotonic() + 5
    while server.status("Threads") > threads and time.monotonic() < deadline:
        time.sleep(0.1)
    assert server.status("Threads") <= threads
    assert server.status("VmRSS") < rss + 8_000  # kB: back to the baseline, give or take the allocator's caches
    assert me() == 200
