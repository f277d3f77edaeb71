"""A paced first index with the default dense model, embedding while it reads and one after the other.

The bakery's first index (43 documents, 315 chunks) read from the simulator in process on the wall clock
(no rate limits, no simulated latency slept), paced at 12 and at 4 requests per second by the client's own
:class:`~lab.client.FixedRate`, as a real index is paced at Notion's 3. The dense model is the tuned
recipe's, multilingual-e5-small on ONNX Runtime (the model itself, not the vectors the lab keeps for
the bakery), loaded before the clock starts. Three runs, each into
a fresh index: no dense model (the reading alone, cut and written), then e5 with
``SyncConfig(embed_while_reading=False)`` (each batch embedded after every read), then e5 embedding
each batch in the background while the next is read (the default). Reported: wall seconds, the
seconds spent inside the model's calls, and reading + embedding: what the runs would cost one after
the other. Both e5 runs write the same index (checked). Seconds are wall time on the machine as it
is: a shared 2-core machine runs other work too.

``--pages 2000`` measures instead the first index of the bakery cloned to 2,000 pages (15,750
chunks), paced at 3 requests per second like Notion's limit, its model in 2 worker processes
(``--embed-workers 2``): how long a user's first TUNED index of such a workspace takes.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import pandas as pd

__all__ = ["measure", "main"]

#: requests per second: at 12 the bakery reads in about 6 s, a third of what e5 takes to embed it on 2 cores;
#: at 4 (Notion's 3, near enough) reading and embedding take about as long
RATES = (12.0, 4.0)
QUICK_RATES = (50.0,)
BATCH_PAGES = 8  # pages a batch: the bakery's 43 documents make 6 batches, so there is something to overlap


class _TimedEmbedder:
    """The model, with the seconds spent inside its calls added up."""

    def __init__(self, model: Any) -> None:
        self.model, self.name, self.seconds = model, model.name, 0.0
        self.max_input_tokens = getattr(model, "max_input_tokens", None)

    def embed_documents(self, texts: list[str]) -> Any:
        began = time.perf_counter()
        try:
            return self.model.embed_documents(texts)
        finally:
            self.seconds += time.perf_counter() - began


def _run(rate: float, dense: _TimedEmbedder | None, embed_while_reading: bool) -> dict[str, Any]:
    from lab.client import FixedRate, NotionClient
    from lab.clock import WallClock
    from lab.index import IndexStore
    from lab.ingest import SyncConfig, full_index
    from lab.simulator import KB_INTEGRATION, LimitsConfig, bakery_simulator, in_process_session

    unlimited = LimitsConfig(connection_budget=10 ** 9, workspace_budget=10 ** 9)
    sim = bakery_simulator(seed=0, clock=WallClock(), limits=unlimited)
    clock = WallClock()
    client = NotionClient(sim.token_for(KB_INTEGRATION), session=in_process_session(sim), clock=clock,
                          pacer=FixedRate(rate))
    config = SyncConfig(dense=dense, batch_pages=BATCH_PAGES, embed_while_reading=embed_while_reading)
    with IndexStore(":memory:") as store:
        began = time.perf_counter()
        report = full_index(client, store, clock, config)
        seconds = time.perf_counter() - began
        return {"seconds": seconds, "embed s": dense.seconds if dense is not None else 0.0,
                "requests": report.requests, "chunks": report.chunks_total, "state": store.state()}


def measure(rate: float) -> pd.DataFrame:
    """The three runs at ``rate`` requests per second; one row each."""
    from lab.embedders.named import load_e5

    model = load_e5()  # the model itself: the recipe's embedder answers the bakery from its kept vectors
    model.embed_documents(["warm up"])  # the load is not what is measured
    reading = _run(rate, None, True)
    rows = [{"run": "no dense model (reading alone)", **reading}]
    for name, overlap in (("e5, one after the other", False), ("e5, embedding while reading", True)):
        rows.append({"run": name, **_run(rate, _TimedEmbedder(model), overlap)})
    if rows[1]["state"] != rows[2]["state"]:
        raise AssertionError("embedding while reading wrote another index than embedding after it")
    for row in rows:
        del row["state"]
        row["reading + embedding s"] = reading["seconds"] + row["embed s"]
    frame = pd.DataFrame(rows)
    frame.insert(1, "rate", rate)
    return frame.round({"seconds": 2, "embed s": 2, "reading + embedding s": 2})


def measure_workspace(pages: int, rate: float = 3.0, workers: int = 2) -> dict[str, Any]:
    """A first index of the bakery cloned to ``pages`` publishable pages, paced at ``rate`` requests per second on
    the wall clock as against Notion, TUNED's model in ``workers`` processes embedding while the run reads."""
    from lab.client import FixedRate, NotionClient
    from lab.clock import WallClock
    from lab.datasets.scaled_bakery import scaled_bakery_spec
    from lab.embedders.workers import EmbeddingWorkers
    from lab.index import IndexStore
    from lab.ingest import SyncConfig, full_index
    from lab.simulator import KB_INTEGRATION, LimitsConfig, bakery_simulator, in_process_session

    unlimited = LimitsConfig(connection_budget=10 ** 9, workspace_budget=10 ** 9)
    sim = bakery_simulator(seed=0, clock=WallClock(), limits=unlimited, spec=scaled_bakery_spec(pages))
    clock = WallClock()
    client = NotionClient(sim.token_for(KB_INTEGRATION), session=in_process_session(sim), clock=clock,
                          pacer=FixedRate(rate))
    with EmbeddingWorkers(workers) as model:  # loaded before the clock starts, as a run's first batch would wait
        dense = _TimedEmbedder(model)
        texts = [0]
        config = SyncConfig(dense=dense, on_embedded=lambda n: texts.__setitem__(0, texts[0] + n))
        with IndexStore(":memory:") as store:
            began = time.perf_counter()
            report = full_index(client, store, clock, config)
            seconds = time.perf_counter() - began
    return {"pages": pages, "rate": rate, "workers": workers, "requests": report.requests,
            "chunks": report.chunks_total, "texts embedded": texts[0], "seconds": round(seconds, 1),
            "embed s": round(dense.seconds, 1), "reading alone s (requests / rate)": round(report.requests / rate, 1)}


def main(quick: bool = False, rates: tuple[float, ...] | None = None) -> pd.DataFrame:
    """Measure at each rate and print the table."""
    frame = pd.concat([measure(rate) for rate in rates or (QUICK_RATES if quick else RATES)], ignore_index=True)
    print(f"the bakery's first index paced on the wall clock, batches of {BATCH_PAGES} pages, multilingual-e5-small "
          "(ONNX Runtime); seconds of wall time; embed s: inside the model's calls")
    print(frame.to_string(index=False))
    return frame


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rate", type=float, action="append", help="requests per second (default: 12, then 4)")
    parser.add_argument("--quick", action="store_true", help="a smoke run at 50 requests per second")
    parser.add_argument("--pages", type=int, help="instead: a first index of the bakery cloned to this many pages, "
                                                  "at --rate (default 3) with --workers embedding processes")
    parser.add_argument("--workers", type=int, default=2, help="embedding processes for --pages (default 2)")
    arguments = parser.parse_args()
    if arguments.pages:
        print(pd.DataFrame([measure_workspace(arguments.pages, (arguments.rate or [3.0])[0], arguments.workers)])
              .to_string(index=False))
    else:
        main(arguments.quick, tuple(arguments.rate) if arguments.rate else None)
