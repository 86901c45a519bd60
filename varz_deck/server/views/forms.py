"""The pages' forms (Django forms): a deck list pasted or uploaded, a player's list, the live
check, the judge's look-up and comparison, the roster upload.

A form's problem is one sentence in the page's language (`problem`); the fields keep what was
posted, so the page shows it again. Texts are kept exactly as posted (a NUL too: the service makes
it storable), with their line ends as a text area posts them back.
"""

from __future__ import annotations

from collections.abc import Callable

from django import forms
from django.core.validators import ProhibitNullCharactersValidator

from varz_deck.server import service
from varz_deck.server.config import BODY_LIMIT
from varz_deck.server.views import texts
from varz_deck.server.views.viewmodels import deck_for_textarea


class TextField(forms.CharField):
    """Any text, never required, kept exactly (no stripping, NUL allowed), `\\n` line ends."""

    def __init__(self, **options: object) -> None:
        super().__init__(required=False, strip=False, **options)
        kept = [v for v in self.validators if not isinstance(v, ProhibitNullCharactersValidator)]
        self.validators: list[Callable[[object], None]] = kept

    def to_python(self, value: object) -> str:
        return deck_for_textarea(str(super().to_python(value)))


class PageForm(forms.Form):
    """A form whose problems are said in the page's language."""

    problem_fields: tuple[str, ...] = ()  # whose problem the page shows first

    def __init__(self, *args: object, lang: str = "en", **options: object) -> None:
        super().__init__(*args, **options)
        self.lang = lang

    @property
    def problem(self) -> str:
        """The first problem of the form ("" when none)."""
        for field in self.problem_fields:
            for error in self.errors.get(field, ()):
                return str(error)
        return ""


class DeckForm(PageForm):
    """A deck list: the uploaded file when one is chosen, else the text area."""

    deck = TextField()
    file = forms.FileField(required=False, allow_empty_file=True)
    problem_fields: tuple[str, ...] = ("deck",)

    def clean(self) -> dict[str, object]:
        data = super().clean()
        upload = data.get("file")
        text = data.get("deck", "")
        if upload is not None and upload.size:
            if upload.size > BODY_LIMIT:
                return self._refuse(texts.TOO_LONG(limit=BODY_LIMIT).render(self.lang))
            try:
                text = deck_for_textarea(upload.read().decode("utf-8-sig"))
            except UnicodeDecodeError:
                return self._refuse(texts.NOT_TEXT.render(self.lang))
        if not text.strip():
            return self._refuse(texts.NO_DECK.render(self.lang))
        data["text"] = text
        return data

    def _refuse(self, problem: str) -> dict[str, object]:
        self.add_error("deck", problem)
        return self.cleaned_data

    @property
    def text(self) -> str:
        """The deck text of a valid form."""
        return str(self.cleaned_data["text"])

    @property
    def shown_deck(self) -> str:
        """The text area as posted, for the form shown again."""
        return deck_for_textarea(str(self.data.get("deck", "")))


class PlayerDeckForm(DeckForm):
    """A player's name, optional player id and list (the submission page, the organiser's list
    for a player)."""

    player = TextField()
    player_id = TextField()
    problem_fields = ("deck", "player", "player_id")

    def clean_player_id(self) -> str:
        try:
            return service.clean_player_id(self.cleaned_data.get("player_id"))
        except service.Invalid as invalid:
            raise forms.ValidationError(invalid.message.render(self.lang)) from None

    @property
    def shown_player_id(self) -> str:
        return " ".join(str(self.data.get("player_id", "")).split())

    def clean_player(self) -> str:
        try:
            return service.clean_player(self.cleaned_data.get("player"))
        except service.Invalid as invalid:
            raise forms.ValidationError(invalid.message.render(self.lang)) from None

    @property
    def shown_player(self) -> str:
        """The name as posted, its spaces made one, for the form shown again."""
        return " ".join(str(self.data.get("player", "")).split())


class CheckForm(PageForm):
    """The live check: the text area's list as it is now."""

    deck = TextField()


class JudgeForm(PageForm):
    """The judge's page: a list by its id (`entry`) or a player or deck hash (`hash`); with a
    POST, the list as presented."""

    entry = TextField()
    hash = TextField()
    presented = TextField()

    def clean_entry(self) -> str:
        return str(self.cleaned_data.get("entry", "")).strip()

    def clean_hash(self) -> str:
        return " ".join(str(self.cleaned_data.get("hash", "")).split())[:4096]  # a deck code


class RosterForm(PageForm):
    """The organiser's roster upload: the chosen CSV file, else the pasted text (as bytes)."""

    roster = TextField()
    file = forms.FileField(required=False, allow_empty_file=True)
    problem_fields = ("roster",)

    def clean(self) -> dict[str, object]:
        data = super().clean()
        upload = data.get("file")
        if upload is not None and upload.size:
            if upload.size > BODY_LIMIT:
                self.add_error("roster", texts.ROSTER_TOO_LONG(limit=BODY_LIMIT).render(self.lang))
                return data
            data["csv"] = upload.read()
        elif str(data.get("roster", "")).strip():
            data["csv"] = str(data["roster"]).encode("utf-8", "surrogatepass")
        else:
            self.add_error("roster", texts.NO_ROSTER_GIVEN.render(self.lang))
        return data

    @property
    def csv(self) -> bytes:
        return bytes(self.cleaned_data["csv"])

    @property
    def shown_text(self) -> str:
        return deck_for_textarea(str(self.data.get("roster", "")))
