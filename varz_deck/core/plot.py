"""What every game's charts share: the formats `sim --plot` writes, and the error it raises."""

from __future__ import annotations

from varz_deck.core.i18n import Message

FORMATS = ("svg", "png")


class PlotError(Exception):
    """The plot cannot be made (an unknown format, or matplotlib missing for PNG)."""

    def __init__(self, message: Message) -> None:
        super().__init__(message.render())
        self.message = message
