"""Handlers that never break the server: a failure is logged, the request gets no answer."""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import TypeVar

log = logging.getLogger("varz_deck.lsp")
F = TypeVar("F", bound=Callable[..., object])


def guarded(handler: F) -> F:
    """Log a handler's failure instead of sending it to the editor (never a broken server)."""

    @functools.wraps(handler)
    def run(*args: object, **kwargs: object) -> object:
        try:
            return handler(*args, **kwargs)
        except Exception:  # a bug: the editor keeps working, the log says what happened
            log.exception("varz-deck lsp: %s failed", handler.__name__)
            return None

    return run  # type: ignore[return-value]
