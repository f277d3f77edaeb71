"""Embedding on several processes (``--embed-workers``) and on several machines through a PostgreSQL
index's queue (``--embed-queue`` with ``notion-lab embed`` workers), a killed worker included."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

from lab.cli import main
from lab.cli.embed_worker import DEFAULT_DENSE_MODEL, OFFLINE_DENSE_MODELS
from lab.embedders import E5_VARIANTS, text_key
from lab.index import IndexOpenError, IndexStore
from lab.index.embedding_queue import EmbeddingQueue
from lab.ingest.shared_embedding import CLAIM_SIZE, QueuedEmbedder, embed_pending
from tests.fake_embedders import HashEmbedder

REPO = Path(__file__).resolve().parents[1]
#: Blocks rewritten in each page of the served bakery: enough new text (some 70 chunks) that a run sharing its
#: embedding takes seconds, so a worker polling every 50 ms takes part whatever the machine's load
NEW_PER_PAGE = 2
TEXTS = [f"Texto {n}: la panadería abre a las {7 + n % 5} y cierra a las {18 + n % 4}." for n in range(40)]

# A worker process with a slow fake model: it says "claimed" when it starts embedding a claim (so a test can
# kill it while it holds one), then takes 50 ms a text.
_SLOW_WORKER = """
import sys, time
from lab.index.embedding_queue import EmbeddingQueue
from lab.ingest.shared_embedding import embed_pending
from tests.fake_embedders import HashEmbedder

class Slow(HashEmbedder):
    def embed_documents(self, texts):
        print("claimed", flush=True)
        time.sleep(0.05 * len(texts))
        return super().embed_documents(texts)

queue = EmbeddingQueue(sys.argv[1], worker=sys.argv[2])
print("done", embed_pending(queue, Slow(), idle_exit=1.0, poll=0.05), flush=True)
"""


def test_the_commands_model_names_are_the_embedders() -> None:
    assert OFFLINE_DENSE_MODELS == tuple(E5_VARIANTS.values()) and DEFAULT_DENSE_MODEL == E5_VARIANTS["original"]


@pytest.mark.slow
def test_workers_return_the_bytes_one_process_with_the_same_threads_gives() -> None:
    from lab.embedders.named import load_e5
    from lab.embedders.workers import EmbeddingWorkers, WorkerFailedError

    alone = load_e5(threads=1)
    texts = TEXTS[:9]  # three pieces: the workers answer out of order, the vectors come back in order
    with EmbeddingWorkers(2, threads=1) as workers:
        assert workers.name == alone.name and workers.max_input_tokens == alone.max_input_tokens
        result = workers.embed_documents(texts)
        expected = alone.embed_documents(texts)
        assert result.vectors.dtype == np.float32 and result.vectors.shape == (9, 384)
        assert np.array_equal(result.vectors, expected.vectors) and result.tokens == expected.tokens
        assert np.array_equal(workers.embed_query("¿a qué hora abren?"), alone.embed_query("¿a qué hora abren?"))
        assert workers.embed_documents([]).vectors.shape == (0, 0)
        with pytest.raises(type(_failure(alone, ""))):  # the model's own refusal, raised here
            workers.embed_documents(["bien", ""])
        assert np.array_equal(workers.embed_documents(texts[:2]).vectors, expected.vectors[:2])  # still serving
        os.kill(workers._processes[1].pid, signal.SIGKILL)
        workers._processes[1].wait()
        with pytest.raises(WorkerFailedError, match="ended"):
            workers.embed_documents(texts)
    with pytest.raises(ValueError, match="from 1 to 64"):
        EmbeddingWorkers(0)


def _failure(model, text: str) -> BaseException:
    try:
        model.embed_documents([text])
    except Exception as failure:  # noqa: BLE001 - whatever the model raises
        return failure
    raise AssertionError("the model embedded an empty text")


def _hash_vectors(texts: list[str]) -> np.ndarray:
    return HashEmbedder().embed_documents(texts).vectors


@pytest.mark.postgres
def test_the_queue_needs_an_existing_postgresql_index(postgres_url, tmp_path) -> None:
    with pytest.raises(IndexOpenError, match="not a PostgreSQL URL"):
        EmbeddingQueue(str(tmp_path / "kb.sqlite"))
    with pytest.raises(IndexOpenError, match="holds no index yet"):
        EmbeddingQueue(postgres_url)


@pytest.mark.postgres
def test_a_run_alone_embeds_everything_itself_and_leaves_the_queue_empty(postgres_url) -> None:
    IndexStore(postgres_url).close()
    queue = EmbeddingQueue(postgres_url, worker="run")
    run = QueuedEmbedder(queue, HashEmbedder())
    texts = TEXTS[:11] + TEXTS[:3]  # a text twice is embedded once
    result = run.embed_documents(texts)
    assert np.array_equal(result.vectors, _hash_vectors(texts)) and result.texts == 14
    assert run.embedded_here == 11 and queue.pending() == 0 and queue.embedded_by() == {}
    assert run.embed_documents([]).vectors.shape == (0, 0)
    queue.close()


@pytest.mark.postgres
@pytest.mark.slow
def test_two_workers_and_a_killed_one_embed_every_text_once(postgres_url) -> None:
    IndexStore(postgres_url).close()
    queue = EmbeddingQueue(postgres_url, worker="test")
    keys = {text_key("text-hash", "passage", text): text for text in TEXTS}
    queue.put("text-hash", keys)
    queue.put("other-model", {"k-other": "a text of another model stays"})
    workers = {name: subprocess.Popen([sys.executable, "-c", _SLOW_WORKER, postgres_url, name], cwd=REPO,
                                      stdout=subprocess.PIPE, text=True) for name in ("a", "b", "victim")}
    victim = workers.pop("victim")
    assert victim.stdout is not None
    claims = 0
    for line in victim.stdout:  # kill it while it embeds its second claim: it holds CLAIM_SIZE rows
        claims += line.startswith("claimed")
        if claims == 2:
            victim.kill()
            break
    victim.wait()
    outputs = {name: worker.communicate(timeout=60)[0] for name, worker in workers.items()}
    assert all(worker.returncode == 0 for worker in workers.values()), outputs
    done = queue.vectors(keys)
    by = queue.embedded_by()
    assert set(done) == set(keys) and queue.pending("text-hash") == 0  # every text, the victim's claim included
    assert np.array_equal(np.stack([done[key] for key in keys]), _hash_vectors(list(keys.values())))
    assert sum(1 for who in by.values() if who == "victim") == CLAIM_SIZE  # its first claim only: one commit
    counts = {name: int(outputs[name].split()[-1]) for name in outputs}
    assert counts["a"] + counts["b"] + CLAIM_SIZE == len(keys) and min(counts.values()) > 0  # each text once
    assert queue.pending() == 1  # another model's text is left for its own workers
    queue.close()


@pytest.mark.postgres
@pytest.mark.slow
def test_a_run_waits_for_a_workers_claims_and_takes_them_back_when_the_worker_dies(postgres_url) -> None:
    IndexStore(postgres_url).close()
    holder = EmbeddingQueue(postgres_url, worker="holder")
    queue = EmbeddingQueue(postgres_url, worker="run")
    texts = TEXTS[:12]
    holder.put("text-hash", {text_key("text-hash", "passage", t): t for t in texts})
    claimed, release = threading.Event(), threading.Event()

    def hold(batch: list[str]) -> np.ndarray:  # a worker that claims, then dies before it commits
        claimed.set()
        release.wait(10)
        raise RuntimeError("killed")

    holding = threading.Thread(target=lambda: pytest.raises(RuntimeError, holder.embed_some, "text-hash", hold, 4))
    holding.start()
    assert claimed.wait(10)
    sleeps: list[float] = []

    def sleep(seconds: float) -> None:  # the run waits on the held claim; the worker dies on its first wait
        sleeps.append(seconds)
        release.set()
        holding.join()

    run = QueuedEmbedder(queue, HashEmbedder(), sleep=sleep)
    result = run.embed_documents(texts)
    assert np.array_equal(result.vectors, _hash_vectors(texts))
    assert len(sleeps) == 1 and run.embedded_here == 12 and queue.pending() == 0
    holder.close(), queue.close()


@pytest.mark.postgres
def test_a_worker_stops_when_the_queue_stays_empty(postgres_url) -> None:
    IndexStore(postgres_url).close()
    queue = EmbeddingQueue(postgres_url, worker="w")
    now = [0.0]

    def sleep(seconds: float) -> None:
        now[0] += seconds

    assert embed_pending(queue, HashEmbedder(), idle_exit=5, poll=1, sleep=sleep, clock=lambda: now[0]) == 0
    assert now[0] == 5
    queue.close()


@pytest.fixture
def served_with_new_texts():
    """The bakery served, blocks of each of its pages given sentences no kept vector holds (so the model embeds them)."""
    from lab.cli import DEFAULT_SERVE_TOKEN
    from lab.clock import WallClock
    from lab.simulator.server import serve_in_background
    from lab.simulator.workspaces import bakery_simulator

    from lab.simulator.limits import LimitsConfig

    sim = bakery_simulator(seed=0, clock=WallClock(), tokens={"indexador": DEFAULT_SERVE_TOKEN},
                           limits=LimitsConfig(plan="enterprise"))  # three runs within a minute, none waits
    ws = sim.workspace
    for number, page in enumerate(sorted(ws.pages.values(), key=lambda p: p.key)):
        blocks = [ws.blocks[c] for c in page.children if "rich_text" in ws.blocks[c].content]
        for line, block in enumerate(blocks[:NEW_PER_PAGE]):
            ws.edit_block_text(block.id, f"Aviso {number}.{line}: desde el lunes horneamos pan de centeno con "
                                         f"nueces y semillas de girasol, tanda número {number}.{line}.")
    with serve_in_background(sim) as server:
        yield server


def _new_texts(db: str) -> set[str]:
    """The distinct chunk texts of an index that no kept vector holds: what a run had to embed."""
    from lab.embedders.named import known_embeddings

    model = E5_VARIANTS["original"]
    with IndexStore(db) as store:
        texts = {row["text"] for row in store.chunks(model)}
    return {t for t in texts if text_key(model, "passage", t) not in known_embeddings(model)}


def _index_chunks(db: str) -> dict[str, np.ndarray]:
    with IndexStore(db) as store:
        ids, vectors = store.vectors(E5_VARIANTS["original"])
    return dict(zip(ids, vectors))


@pytest.mark.slow
@pytest.mark.postgres
def test_index_embeds_on_workers_and_through_the_queue_with_a_worker_taking_part(served_with_new_texts, postgres_url,
                                                                                     tmp_path) -> None:
    from lab.cli import DEFAULT_SERVE_TOKEN

    environment = {**os.environ, "NOTION_TOKEN": DEFAULT_SERVE_TOKEN}
    common = ["--base-url", served_with_new_texts.base_url, "--rate", "50"]

    def index(*arguments: str) -> str:  # each run in a process of its own, as a user runs it (no vector kept between)
        run = subprocess.run([sys.executable, "-m", "lab", "index", *common, *arguments], cwd=REPO, env=environment,
                             capture_output=True, text=True, timeout=300)
        assert run.returncode == 0, run.stderr
        return run.stdout

    pooled = str(tmp_path / "pooled.sqlite")
    assert "multilingual-e5-small-q4 in 2 processes" in index("--db", pooled, "--embed-workers", "2")
    # the queue: a worker started first, the run embeds beside it
    IndexStore(postgres_url).close()
    worker = subprocess.Popen([sys.executable, "-m", "lab", "embed", "--db", postgres_url, "--idle-exit", "600", "--poll", "0.05"],
                              cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert worker.stdout is not None
    assert "loading multilingual-e5-small-q4" in worker.stdout.readline()
    assert "waiting for texts" in worker.stdout.readline()  # loaded: it claims from the run's first batch on
    out = index("--db", postgres_url, "--embed-queue")
    here = int(out.split("embedded through the queue of ")[1].split(": ")[1].split()[0])
    worker.terminate()  # it would wait for another run's texts for --idle-exit seconds
    worker_out, worker_err = worker.communicate(timeout=60)
    progress = [line.split()[0] for line in worker_out.splitlines() if line.endswith("texts embedded")]
    by_worker = int(progress[-1]) if progress else 0
    new = _new_texts(pooled)
    assert len(new) > 40 and here > 0 and by_worker > 0 and here + by_worker == len(new)  # each text once
    pooled_vectors, queued_vectors = _index_chunks(pooled), _index_chunks(postgres_url)
    assert set(pooled_vectors) == set(queued_vectors)
    cosines = [float(pooled_vectors[i] @ queued_vectors[i]) for i in pooled_vectors]
    assert min(cosines) > 0.9999  # the same model; processes with other thread counts differ in the last bits
    with EmbeddingQueue(postgres_url) as queue:
        assert queue.pending() == 0
