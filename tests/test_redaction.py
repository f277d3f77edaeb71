"""One redaction for every client: a secret never shows, raw or escaped, and a bad one is refused unquoted."""

from __future__ import annotations

import json

import pytest

from lab.redaction import MASK, check_secret, redact

SECRET = "ntn_0123456789abcdef"
MULTILINE = "ntn_first\nsecond"


def test_every_occurrence_of_the_secret_is_replaced() -> None:
    assert redact(f"bad token {SECRET}; again {SECRET}", SECRET) == f"bad token {MASK}; again {MASK}"


def test_a_secret_with_a_line_break_is_replaced_raw_in_a_repr_and_in_json() -> None:
    shown = f"raw {MULTILINE} | repr {MULTILINE!r} | json {json.dumps({'token': MULTILINE})}"
    redacted = redact(shown, MULTILINE)
    assert "first" not in redacted and "second" not in redacted
    assert redacted.count(MASK) == 3


def test_a_non_ascii_secret_is_replaced_when_json_escapes_it() -> None:
    secret = "pa-clé-secrète"
    assert secret not in redact(json.dumps({"key": secret}), secret)
    assert "cl\\u00e9" not in redact(json.dumps({"key": secret}), secret)


def test_several_secrets_at_once_and_no_secret_leaves_the_text_alone() -> None:
    assert redact("a KEY1 b KEY2", "KEY1", "KEY2") == f"a {MASK} b {MASK}"
    assert redact("nothing to hide", None, "") == "nothing to hide"


@pytest.mark.parametrize("secret", [MULTILINE, "ntn_trailing\n", " ntn_leading", "ntn_tab\tinside", "ntn_\x00",
                                    "ntn_euro€sign", "ntn_zero\u200bwidth", "pa-clé-secrète"])
def test_a_secret_that_cannot_travel_in_a_header_is_refused_without_being_quoted(secret: str) -> None:
    with pytest.raises(ValueError, match="the Notion token contains") as caught:
        check_secret(secret, "the Notion token")
    message = str(caught.value) + repr(caught.value)
    assert secret.strip() not in message and repr(secret)[1:-1] not in message


def test_a_clean_secret_passes_unchanged() -> None:
    assert check_secret(SECRET, "the Notion token") == SECRET


@pytest.mark.parametrize("make", ["notion", "voyage"])
def test_a_client_given_a_key_http_cannot_encode_refuses_it_before_any_request(make: str) -> None:
    """A key with a character past Latin-1 would fail inside http.client in an error holding the whole
    header; the client refuses it first, naming it, without the value."""
    from lab.client import NotionClient
    from lab.services.voyage import VoyageEmbedder

    secret = "secret_AUDIT€TOKEN123456789"
    with pytest.raises(ValueError) as caught:
        NotionClient(secret) if make == "notion" else VoyageEmbedder(secret)
    shown = str(caught.value) + repr(caught.value)
    assert "not ASCII" in shown and "AUDIT" not in shown
