"""The Chinese support handbook as lesson 07 reads it: from the simulator, chunked, audiences attached.

The handbook's knowledge base (客服知识库) holds support pages (受众 = 客服) and one HR page
(受众 = 人事). The index keeps both audiences; each chunk's audience is its page's 受众 select,
which the audience filter of every retriever reads before ranking.
"""

from __future__ import annotations

from dataclasses import dataclass

from lab.chunking import Chunk
from lab.chunking.corpus import chunk_pages
from lab.chunking.flatten import MARKERS_ZH
from lab.client import FixedRate, NotionClient
from lab.datasets.handbook import SUPPORT_INTEGRATION, load_handbook_workspace
from lab.simulator import NotionSimulator, Workspace, in_process_session
from lab.ingest.reading import page_property, read_knowledge_base
from lab.retrieval.corpus import SearchCorpus

__all__ = ["HandbookRead", "read_handbook", "KNOWLEDGE_BASE", "AUDIENCE_PROPERTY", "PUBLISHABLE_PROPERTY"]

KNOWLEDGE_BASE = "客服知识库"
AUDIENCE_PROPERTY = "受众"
PUBLISHABLE_PROPERTY = "可发布"


@dataclass
class HandbookRead:
    """The handbook's chunks, each page's audience, and the workspace (to map page keys to ids)."""

    chunks: list[Chunk]
    audiences: dict[str, str]
    workspace: Workspace

    def corpus(self) -> SearchCorpus:
        """The chunks as a :class:`SearchCorpus` carrying their page's audience."""
        return SearchCorpus.from_chunks(self.chunks, self.audiences)


def read_handbook(seed: int = 0) -> HandbookRead:
    """Read every publishable handbook page through a paced client, flatten with Chinese markers, chunk."""
    simulator = NotionSimulator(Workspace.from_spec(load_handbook_workspace()), seed=seed)
    client = NotionClient(simulator.token_for(SUPPORT_INTEGRATION), session=in_process_session(simulator),
                          clock=simulator.clock, pacer=FixedRate(3.0))
    read = read_knowledge_base(client, title=KNOWLEDGE_BASE, publishable_property=PUBLISHABLE_PROPERTY)
    audiences = {page.id: page_property(page.page, AUDIENCE_PROPERTY) for page in read.pages}
    return HandbookRead(chunk_pages(read.pages, markers=MARKERS_ZH).chunks, audiences, simulator.workspace)
