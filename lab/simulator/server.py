"""The simulator over HTTP: the same core as the in-process transport, on the wall clock.

Any Notion client, the official SDK included, can be pointed at it
(``Client(auth=TOKEN, base_url="http://127.0.0.1:8787")``). It binds to loopback by default,
bounds request bodies before reading them, answers every mistake with a Notion-shaped error,
and stops cleanly on Ctrl-C or SIGTERM.
"""

from __future__ import annotations

import json
import socket
import threading
import weakref
from contextlib import contextmanager, suppress
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Iterator
from urllib.parse import parse_qsl, urlsplit

from lab.simulator.errors import APIError
from lab.simulator.ids import object_id
from lab.simulator.simulator import NotionSimulator, SimResponse

__all__ = ["SimulatorHTTPServer", "ServedSimulator", "serve_in_background"]


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: "SimulatorHTTPServer"

    def _answer(self, response: SimResponse) -> None:
        payload = json.dumps(response.body, ensure_ascii=False).encode("utf-8")
        self.send_response(response.status)
        for name, value in response.headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)
        if self.server.verbose:
            print(f"{self.command} {urlsplit(self.path).path} -> {response.status}", flush=True)

    def _refuse_body(self, length: int) -> None:
        error = APIError(400, "validation_error", f"Request body too large: {length} bytes; the limit is "
                                                  f"{self.server.simulator.max_body_bytes} bytes.")
        request_id = object_id("request", "oversized", length)
        self._answer(SimResponse(400, {"Content-Type": "application/json; charset=utf-8"}, error.body(request_id)))
        self.close_connection = True  # the body was not read: the connection cannot be reused

    def _handle(self) -> None:
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            length = -1
        if length < 0 or length > self.server.simulator.max_body_bytes:
            self._refuse_body(length)
            return
        body = self.rfile.read(length) if length else None
        parts = urlsplit(self.path)
        with self.server.lock:  # the simulator is not thread-safe: one request at a time
            response = self.server.simulator.handle(self.command, parts.path, headers=dict(self.headers.items()),
                                                    query=dict(parse_qsl(parts.query, keep_blank_values=True)),
                                                    body=body)
        self._answer(response)

    do_GET = do_POST = do_PATCH = do_PUT = do_DELETE = _handle

    def log_message(self, format: str, *args: object) -> None:  # requests are logged by _answer, without headers
        pass


class SimulatorHTTPServer(ThreadingHTTPServer):
    """A threading HTTP server whose every request goes to one :class:`NotionSimulator`."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, simulator: NotionSimulator, host: str = "127.0.0.1", port: int = 0,
                 verbose: bool = False) -> None:
        super().__init__((host, port), _Handler)
        self.simulator = simulator
        self.lock = threading.Lock()
        self.verbose = verbose
        self._thread: threading.Thread | None = None
        self._connections: set[socket.socket] = set()  # open client connections, keep-alive ones included
        self._connections_lock = threading.Lock()

    @property
    def base_url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host}:{port}"

    def start_in_background(self) -> "SimulatorHTTPServer":
        """Serve from a background thread (a notebook keeps working while it serves)."""
        self._thread = threading.Thread(target=self.serve_forever, name="notion-simulator", daemon=True)
        self._thread.start()
        return self

    def process_request(self, request: socket.socket, client_address: tuple[str, int]) -> None:  # type: ignore[override]
        with self._connections_lock:
            self._connections.add(request)
        super().process_request(request, client_address)

    def shutdown_request(self, request: socket.socket) -> None:  # type: ignore[override]
        with self._connections_lock:
            self._connections.discard(request)
        super().shutdown_request(request)

    def stop(self) -> None:
        """Stop serving, close the socket and wait for the thread: no port or thread is left behind.

        Open keep-alive connections are shut too: their threads would otherwise go on answering a
        client (an SDK's connection pool) from this stopped server.
        """
        self.shutdown()
        with self._connections_lock:
            still_open = list(self._connections)
        for connection in still_open:
            with suppress(OSError):  # the client may have closed it already
                connection.shutdown(socket.SHUT_RDWR)
        self.server_close()
        if self._thread is not None:
            self._thread.join(timeout=10)
            self._thread = None


@contextmanager
def serve_in_background(simulator: NotionSimulator, host: str = "127.0.0.1",
                        port: int = 0) -> Iterator[SimulatorHTTPServer]:
    """Serve ``simulator`` on a free port in a background thread for the length of a ``with``."""
    server = SimulatorHTTPServer(simulator, host, port).start_in_background()
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

    def __init__(self, simulator: NotionSimulator, host: str = "127.0.0.1", port: int = 0) -> None:
        self._simulator = simulator
        self._running: list[SimulatorHTTPServer] = []  # the live server, if any; shared with the finalizer
        self._running.append(SimulatorHTTPServer(simulator, host, port).start_in_background())
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
                server = SimulatorHTTPServer(simulator, self._host, self._port)
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
