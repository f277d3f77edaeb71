"""Opaque pagination cursors: signed so that a client can copy them but never forge one."""

from __future__ import annotations

import base64
import hashlib
import hmac

from lab.simulator.errors import APIError, validation_error
from lab.simulator.json_wire import shown

__all__ = ["CursorCodec"]

_MAX_CURSOR_LENGTH = 200  # the ones this codec issues are about 30 characters


class CursorCodec:
    """Encode a list position for one listing (its scope) into a token only this server accepts."""

    def __init__(self, secret: bytes) -> None:
        self._secret = secret

    def _sign(self, payload: bytes) -> str:
        return hmac.new(self._secret, payload, hashlib.sha256).hexdigest()[:20]

    def encode(self, scope: str, offset: int) -> str:
        payload = f"{offset}".encode()
        token = base64.urlsafe_b64encode(payload).decode().rstrip("=")
        return f"{token}.{self._sign(scope.encode() + b'|' + payload)}"

    def decode(self, cursor: object, scope: str) -> int:
        """The offset a cursor stands for, or a 400 if it was not issued for this listing."""
        if (not isinstance(cursor, str) or "." not in cursor or len(cursor) > _MAX_CURSOR_LENGTH
                or not cursor.isascii()):  # compare_digest takes ASCII strings only
            raise _invalid(cursor)
        token, signature = cursor.rsplit(".", 1)
        try:
            payload = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
            offset = int(payload.decode())
        except (ValueError, UnicodeDecodeError):
            raise _invalid(cursor) from None
        expected = self._sign(scope.encode() + b"|" + payload)
        if not hmac.compare_digest(expected, signature) or offset < 0:
            raise _invalid(cursor)
        return offset


def _invalid(cursor: object) -> APIError:
    """Notion's 400 for a cursor it did not issue; the cursor is echoed, cut short if long."""
    echoed = cursor if isinstance(cursor, str) else shown(cursor)
    return validation_error(f"The start_cursor provided is invalid: {echoed[:100]}")
