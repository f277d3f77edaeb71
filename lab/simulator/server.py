"""The simulator over HTTP: the same core as the in-process transport, on the wall clock.

Any Notion client, the official SDK included, can be pointed at it
(``Client(auth=TOKEN, base_url="http://127.0.0.1:8787")``). It binds to loopback by default and
answers everything that is not a well-formed Notion call with a Notion-shaped JSON error, never
an HTML page or a dropped connection: bodies are bounded before they are read (400, as Notion), chunked
bodies are read within the same bound, ambiguous framing (two ``Content-Length`` headers, or one
beside ``Transfer-Encoding``) is refused, over-long request lines (414) and header blocks (431)
are refused, and a TLS handshake sent to this plain-HTTP port is told so. A connection that
sends nothing, or only part of a request, for ``idle_timeout`` seconds is closed, so idle and
slow clients cannot hold threads. Each answer leaves in one write with Nagle's algorithm off,
so a keep-alive client waits for the answer, not for a delayed ACK. It stops cleanly on Ctrl-C
or SIGTERM.
"""

from __future__ import annotations

import itertools
import re
import socket
import sys
import threading
import time
import weakref
from contextlib import contextmanager, suppress
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Iterator
from urllib.parse import parse_qsl

from lab.simulator.errors import APIError
from lab.simulator.ids import object_id
from lab.simulator.json_wire import dump_json
from lab.simulator.simulator import NotionSimulator, SimResponse, too_large

__all__ = ["SimulatorHTTPServer", "ServedSimulator", "serve_in_background", "IDLE_TIMEOUT", "MAX_REQUEST_LINE"]

#: Seconds a connection may stay silent, or take to send one request or read one answer (longer
#: than the official SDK's 5-s keep-alive expiry, so the SDK closes its idle connections first).
IDLE_TIMEOUT = 30.0
#: Longest request line accepted (the standard library's own bound); longer ones get a 414.
MAX_REQUEST_LINE = 65_536
_MAX_CHUNK_LINE = 1_024  # a chunk-size line: hex digits and optional extensions
_MAX_TRAILERS = 100
_DRAIN_BYTES, _DRAIN_SECONDS = 1_000_000, 1.0  # what is read and dropped so a refusal reaches the client
_JSON = {"Content-Type": "application/json; charset=utf-8"}
_TLS_HANDSHAKE = 0x16  # first byte of a TLS record carrying a ClientHello
_CONNECTIONS = itertools.count(1)  # numbers the connections' threads, so that each is told apart
STOP_WAIT_S = 10.0  # how long stop() waits for the serving thread, then for the connections' threads


class _Disconnected(Exception):
    """The client closed the connection (or was timed out) before its request was complete."""


class _Deadlines:
    """Open client connections, each with the moment its current step (sending a request, or
    reading an answer) must be finished by.

    An overdue connection is first shut for reading: its thread sees the end of the stream and,
    if a request had begun, answers 408 before closing. One that is still open a moment later
    (a client that does not read its answer) is shut both ways.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._due: dict[socket.socket, float] = {}
        self._expired: set[socket.socket] = set()

    def renew(self, connection: socket.socket, seconds: float) -> None:
        with self._lock:
            self._due[connection] = time.monotonic() + seconds

    def forget(self, connection: socket.socket) -> None:
        with self._lock:
            self._due.pop(connection, None)
            self._expired.discard(connection)

    def expired(self, connection: socket.socket) -> bool:
        """True once the connection has overrun its deadline."""
        with self._lock:
            return connection in self._expired

    def close_overdue(self, grace: float) -> None:
        now, stop_reading, close = time.monotonic(), [], []
        with self._lock:
            for connection, due in list(self._due.items()):
                if due > now:
                    continue
                if connection in self._expired:
                    close.append(connection)
                    del self._due[connection]
                else:
                    stop_reading.append(connection)
                    self._expired.add(connection)
                    self._due[connection] = now + grace
        for connection in stop_reading:
            with suppress(OSError):
                connection.shutdown(socket.SHUT_RD)
        for connection in close:
            _close_now(connection)

    def take_all(self) -> list[socket.socket]:
        with self._lock:
            every = list(self._due)
            self._due.clear()
            self._expired.clear()
        return every

    def __len__(self) -> int:
        with self._lock:
            return len(self._due)


def _close_now(connection: socket.socket) -> None:
    with suppress(OSError):  # the client may have closed it already
        connection.shutdown(socket.SHUT_RDWR)


def _printable(text: str, limit: int = 200) -> str:
    """``text`` with control and non-ASCII characters escaped, cut to ``limit``: a request path
    printed by ``--verbose`` cannot move the cursor or recolour the terminal."""
    escaped = ascii(text)[1:-1]
    return escaped if len(escaped) <= limit else escaped[:limit - 1] + "…"


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # one write per answer, sent at once
    server: "SimulatorHTTPServer"

    # ------------------------------------------------------------------ connection lifecycle

    def setup(self) -> None:
        super().setup()
        self._drain_on_close = False
        self.server.deadlines.renew(self.connection, self.server.idle_timeout)

    def finish(self) -> None:
        with suppress(OSError):
            super().finish()
        if self._drain_on_close:
            self._drain()

    def _drain(self) -> None:
        """Read and drop what the client is still sending, briefly, before the socket closes: a
        socket closed with unread input is reset, and the reset can destroy the answer in flight."""
        with suppress(OSError):
            self.connection.shutdown(socket.SHUT_WR)
            self.connection.settimeout(0.1)
            deadline, left = time.monotonic() + _DRAIN_SECONDS, _DRAIN_BYTES
            while left > 0 and time.monotonic() < deadline:
                data = self.connection.recv(min(left, 65_536))
                if not data:
                    break
                left -= len(data)

    # ------------------------------------------------------------------ one request

    def handle_one_request(self) -> None:
        """Read one request and answer it; anything that is not HTTP/1.x gets a JSON error."""
        self.command, self.request_version, self.requestline = "", "HTTP/1.1", ""
        first = self.rfile.peek(1)[:1]
        if not first:  # the client closed an idle connection, or it was idle too long
            self.close_connection = True
            return
        if first[0] == _TLS_HANDSHAKE:
            self._refuse(400, "invalid_request", "This server speaks plain HTTP: use an http:// URL, not https://.")
            return
        self.raw_requestline = self.rfile.readline(MAX_REQUEST_LINE + 1)
        if len(self.raw_requestline) > MAX_REQUEST_LINE:
            self._refuse(414, "invalid_request", f"Request line longer than {MAX_REQUEST_LINE} bytes.")
            return
        if not self.raw_requestline.endswith(b"\n"):  # the client stopped (or timed out) mid-line
            self._incomplete()
            return
        if len(self.raw_requestline.split()) != 3:
            self._refuse(400, "invalid_request", "Malformed request line: expected `METHOD /path HTTP/1.1`.")
            return
        if not self.parse_request():  # it has answered through send_error
            return
        if self.server.deadlines.expired(self.connection):  # the header block ended by the timeout
            self._incomplete()
            return
        self._answer_request()

    def _incomplete(self) -> None:
        """A request cut short: 408 if the server timed it out, silence if the client left."""
        if self.server.deadlines.expired(self.connection):
            self._refuse(408, "invalid_request", f"Request timed out: it was not complete after "
                                                 f"{self.server.idle_timeout:g} s.")
        self.close_connection = True

    def _answer_request(self) -> None:
        try:
            body = self._read_body(self.server.simulator.max_body_bytes)
        except APIError as refusal:
            self._send(SimResponse(refusal.status, dict(_JSON), dump_json(refusal.body(self.server.refusal_id()))),
                       close=True)
            self._drain_on_close = True  # the body was not read: the connection cannot be reused
            return
        except _Disconnected:
            self._incomplete()
            return
        self.server.deadlines.renew(self.connection, self.server.idle_timeout)
        path, _, query = self.path.partition("?")
        with self.server.lock:  # the simulator is not thread-safe: one request at a time
            response = self.server.simulator.handle(self.command, path, headers=dict(self.headers.items()),
                                                    query=dict(parse_qsl(query, keep_blank_values=True)), body=body)
        self._send(response)
        self.server.deadlines.renew(self.connection, self.server.idle_timeout)

    # ------------------------------------------------------------------ the body, framed one way only

    def _read_body(self, limit: int) -> bytes | None:
        lengths = self.headers.get_all("Content-Length") or []
        codings = self.headers.get_all("Transfer-Encoding") or []
        if codings:
            if lengths:
                raise APIError(400, "invalid_request", "Request has both Content-Length and Transfer-Encoding; "
                                                       "send one of them.")
            if [c.strip().lower() for c in ",".join(codings).split(",")] != ["chunked"]:
                raise APIError(400, "invalid_request", "Unsupported Transfer-Encoding: only `chunked` is accepted.")
            return self._read_chunked(limit)
        if len(lengths) > 1:
            raise APIError(400, "invalid_request", "Request has more than one Content-Length header.")
        if not lengths:
            return None
        text = lengths[0].strip()
        if not re.fullmatch(r"[0-9]+", text):
            raise APIError(400, "invalid_request", "Content-Length should be a whole number of bytes.")
        if len(text) > 12 or int(text) > limit:
            raise too_large(int(text[:12]) if len(text) <= 12 else 10 ** 12, limit)
        return self._read_exactly(int(text))

    def _read_exactly(self, size: int) -> bytes:
        data = self.rfile.read(size)
        if len(data) != size:
            raise _Disconnected
        return data

    def _read_chunked(self, limit: int) -> bytes:
        body = bytearray()
        while True:
            line = self.rfile.readline(_MAX_CHUNK_LINE + 1)
            if not line.endswith(b"\n"):
                if len(line) > _MAX_CHUNK_LINE:
                    raise APIError(400, "invalid_request", "Malformed chunked body: chunk-size line too long.")
                raise _Disconnected
            size_text = line.split(b";", 1)[0].strip()
            if not re.fullmatch(rb"[0-9A-Fa-f]{1,8}", size_text):
                raise APIError(400, "invalid_request", "Malformed chunked body: a chunk size is not hexadecimal.")
            size = int(size_text, 16)
            if size == 0:
                break
            if len(body) + size > limit:
                raise too_large(len(body) + size, limit)
            body += self._read_exactly(size)
            if self._read_exactly(2) != b"\r\n":
                raise APIError(400, "invalid_request", "Malformed chunked body: a chunk is longer than its size.")
        for _ in range(_MAX_TRAILERS):
            line = self.rfile.readline(MAX_REQUEST_LINE + 1)
            if line in (b"\r\n", b"\n"):
                return bytes(body)
            if not line.endswith(b"\n"):
                raise _Disconnected
        raise APIError(431, "invalid_request", f"More than {_MAX_TRAILERS} trailer lines after a chunked body.")

    # ------------------------------------------------------------------ answers

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """The standard library's protocol errors (bad version, 431 header blocks...) as Notion JSON."""
        self._refuse(code, "invalid_request", (message or "Bad request")[:200].rstrip(".") + ".")

    def _refuse(self, status: int, code: str, message: str) -> None:
        error = APIError(status, code, message)
        self._send(SimResponse(status, dict(_JSON), dump_json(error.body(self.server.refusal_id()))), close=True)
        self._drain_on_close = True

    def _send(self, response: SimResponse, close: bool = False) -> None:
        """Status line, headers and body in one write (Nagle's algorithm is off as well)."""
        if close:
            self.close_connection = True
        payload = response.content
        head = [f"HTTP/1.1 {response.status} {response.reason}", f"Date: {self.date_time_string()}",
                *(f"{name}: {value}" for name, value in response.headers.items()),
                f"Content-Length: {len(payload)}"]
        if self.close_connection:
            head.append("Connection: close")
        data = ("\r\n".join(head) + "\r\n\r\n").encode("latin-1")
        self.wfile.write(data if self.command == "HEAD" else data + payload)
        if self.server.verbose:
            path = self.path.partition("?")[0] if self.command else "-"
            print(f"{_printable(self.command or '-')} {_printable(path)} -> {response.status}", flush=True)

    def log_message(self, format: str, *args: object) -> None:  # requests are logged by _send, without headers
        pass


class SimulatorHTTPServer(ThreadingHTTPServer):
    """A threading HTTP server whose every request goes to one :class:`NotionSimulator`.

    ``idle_timeout`` closes a connection that sends nothing, or only part of a request, for
    that many seconds (and one that does not read its answer), so idle keep-alive connections
    and slow clients do not pile up threads.
    """

    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 128  # listen backlog: 16 clients connecting at once are all queued, none reset

    def __init__(self, simulator: NotionSimulator, host: str = "127.0.0.1", port: int = 0,
                 verbose: bool = False, idle_timeout: float = IDLE_TIMEOUT) -> None:
        if not idle_timeout > 0:
            raise ValueError(f"idle_timeout must be a positive number of seconds, got {idle_timeout}")
        super().__init__((host, port), _Handler)
        self.simulator = simulator
        self.lock = threading.Lock()
        self.verbose = verbose
        self.idle_timeout = idle_timeout
        self.deadlines = _Deadlines()  # every open client connection, keep-alive ones included
        self._refusals = itertools.count(1)
        self._thread: threading.Thread | None = None
        self._answering: set[threading.Thread] = set()  # a thread per open connection, until it ends
        self._answering_lock = threading.Lock()

    @property
    def base_url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host}:{port}"

    @property
    def open_connections(self) -> int:
        """Client connections open right now."""
        return len(self.deadlines)

    def refusal_id(self) -> str:
        """A request id for an answer the server gives without asking the simulator."""
        return object_id("request", "refused", next(self._refusals))

    def start_in_background(self, poll_interval: float | None = None) -> "SimulatorHTTPServer":
        """Serve from a background thread (a notebook keeps working while it serves); :meth:`stop` waits
        up to ``poll_interval`` seconds for the loop to notice (a test double stops often: it polls faster)."""
        self._thread = threading.Thread(target=self.serve_forever, args=(poll_interval,), name="notion-simulator",
                                        daemon=True)
        self._thread.start()
        return self

    def serve_forever(self, poll_interval: float | None = None) -> None:
        """Serve until :meth:`shutdown`, looking for overdue connections at every poll."""
        super().serve_forever(poll_interval if poll_interval is not None else min(0.5, self.idle_timeout / 4))

    def process_request(self, request: socket.socket, client_address: object) -> None:  # type: ignore[override]
        """Answer the connection from a thread of its own. The connection is registered before the thread
        starts and the thread is remembered until it ends, so that :meth:`stop` closes every connection
        and waits for every thread (the standard library keeps no track of daemon threads)."""
        self.deadlines.renew(request, self.idle_timeout)
        thread = threading.Thread(target=self._answer, args=(request, client_address),
                                  name=f"notion-simulator-connection-{next(_CONNECTIONS)}", daemon=True)
        with self._answering_lock:
            self._answering.add(thread)
        thread.start()

    def _answer(self, request: socket.socket, client_address: object) -> None:
        try:
            self.process_request_thread(request, client_address)
        finally:
            with self._answering_lock:
                self._answering.discard(threading.current_thread())

    def service_actions(self) -> None:
        self.deadlines.close_overdue(grace=min(1.0, self.idle_timeout))

    def shutdown_request(self, request: socket.socket) -> None:  # type: ignore[override]
        self.deadlines.forget(request)
        super().shutdown_request(request)

    def handle_error(self, request: object, client_address: object) -> None:
        """A client that goes away mid-answer is normal; anything else is one line, never a traceback."""
        error = sys.exc_info()[1]
        if isinstance(error, OSError):
            return
        print(f"notion simulator: {type(error).__name__} while answering a request: {error}", file=sys.stderr)

    def stop(self) -> None:
        """Stop serving, close the socket and wait for the thread: no port or thread is left behind.

        Open keep-alive connections are shut too: their threads would otherwise go on answering a
        client (an SDK's connection pool) from this stopped server.
        """
        self.shutdown()  # no connection is accepted after this, so every one open is registered
        for connection in self.deadlines.take_all():
            _close_now(connection)
        self.server_close()
        if self._thread is not None:
            self._thread.join(timeout=STOP_WAIT_S)
            self._thread = None
        deadline = time.monotonic() + STOP_WAIT_S
        with self._answering_lock:
            answering = list(self._answering)
        for thread in answering:  # each sees its connection shut and ends; one inside a request finishes it
            thread.join(timeout=max(0.0, deadline - time.monotonic()))


@contextmanager
def serve_in_background(simulator: NotionSimulator, host: str = "127.0.0.1", port: int = 0,
                        idle_timeout: float = IDLE_TIMEOUT) -> Iterator[SimulatorHTTPServer]:
    """Serve ``simulator`` on a free port in a background thread for the length of a ``with``."""
    server = SimulatorHTTPServer(simulator, host, port, idle_timeout=idle_timeout).start_in_background()
    try:
        yield server
    finally:
        server.stop()


class ServedSimulator:
    """One loopback address that keeps serving across notebook cells: swap the simulator, stop,
    serve again.

    A lesson builds it once; each cell that talks to it first calls :meth:`serve` with the
    simulator it needs, usually a fresh one, so that its output does not depend on what earlier
    cells asked (faults and latencies are drawn from the simulator's seeded stream). ``serve``
    starts the server again after :meth:`stop`, on the same port: ``base_url`` never changes,
    and clients built earlier, the official SDK's included, keep working.

    When the object is garbage-collected (a notebook cell that builds it is run again), its
    server stops, so no thread or port is left behind.
    """

    def __init__(self, simulator: NotionSimulator, host: str = "127.0.0.1", port: int = 0,
                 idle_timeout: float = IDLE_TIMEOUT) -> None:
        self._simulator = simulator
        self._idle_timeout = idle_timeout
        self._running: list[SimulatorHTTPServer] = []  # the live server, if any; shared with the finalizer
        self._running.append(SimulatorHTTPServer(simulator, host, port, idle_timeout=idle_timeout)
                             .start_in_background())
        self._host, self._port = self._running[0].server_address[:2]
        weakref.finalize(self, _stop_each, self._running)

    @property
    def host(self) -> str:
        return self._host

    @property
    def port(self) -> int:
        """The port the system chose at the first start, kept for every restart."""
        return self._port

    @property
    def base_url(self) -> str:
        """``http://host:port``, the same before and after a restart."""
        return f"http://{self._host}:{self._port}"

    @property
    def simulator(self) -> NotionSimulator:
        """The simulator that answers (or will answer, once served again) every request."""
        return self._simulator

    @property
    def running(self) -> bool:
        return bool(self._running)

    def serve(self, simulator: NotionSimulator) -> NotionSimulator:
        """Answer every later request from ``simulator`` (starting the server again if it was
        stopped) and return it."""
        if not self._running:
            try:
                server = SimulatorHTTPServer(simulator, self._host, self._port, idle_timeout=self._idle_timeout)
            except OSError as exc:
                raise OSError(f"cannot serve again on {self.base_url}: {exc.strerror or exc}; another "
                              "program took the port since the server stopped, so build a new "
                              "ServedSimulator (its clients need the new base_url)") from exc
            self._running.append(server.start_in_background())
        server = self._running[0]
        with server.lock:  # never between two halves of a request
            server.simulator = simulator
        self._simulator = simulator
        return simulator

    def stop(self) -> None:
        """Stop serving and free the port; :meth:`serve` starts again. Stopping twice is harmless."""
        _stop_each(self._running)

    def __enter__(self) -> "ServedSimulator":
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.stop()

    def __repr__(self) -> str:
        state = "serving" if self.running else "stopped"
        return f"ServedSimulator({self.base_url}, {state}, {self._simulator!r})"


def _stop_each(servers: list[SimulatorHTTPServer]) -> None:
    while servers:
        servers.pop().stop()
