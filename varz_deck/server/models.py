"""The registration database: events, their decklists, and every version of each list.

Nothing is ever overwritten: a replacement is a new `Version`; `Decklist.current` points at the
latest. Only the verdict of a current version (legal, hash, lead, format, diagnostics) is
replaced, by the current one, when `serve` starts with other card data or the event's date
changed; the verdict at submission stays (`submitted_legal`, `submitted_errors`). Tokens are kept only as SHA-256 hashes (tokens.py).
"""

from __future__ import annotations

from typing import Any

from django.db import models
from django.db.models import Q


class Event(models.Model):
    key = models.CharField(max_length=32, unique=True)  # the public id in URLs
    name = models.CharField(max_length=200)
    game = models.CharField(max_length=32)
    format = models.CharField(max_length=64, blank=True, default="")  # "": each deck's own
    deadline = models.DateTimeField(null=True, blank=True)  # submissions close by themselves
    date = models.DateField()  # the day the event is played: the formats' dated changes apply
    timezone = models.CharField(max_length=64, default="UTC")  # an IANA name: times shown in it
    requires_lists = models.BooleanField(default=True)  # False: lists are accepted, not required
    locked = models.BooleanField(default=False)
    published = models.BooleanField(default=False)
    organiser_token_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("id",)

    def __str__(self) -> str:
        return self.key


class Decklist(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="decklists")
    player = models.CharField(max_length=200)
    # "": none given; a list counts for the roster entry of the same id (RosterEntry). One list
    # not withdrawn per id and event (the constraint below: docs/guides/organiser.md, "The roster")
    player_id = models.CharField(max_length=64, blank=True, default="")
    # the id was given by the player's personal link or by the organiser: only such a list is
    # shown and replaced by the personal link (an id typed on the public page proves nothing)
    player_id_confirmed = models.BooleanField(default=False)
    # the id this list named before the rostered player's own link took it (shown to the
    # organiser); "" for every other list
    claimed_player_id = models.CharField(max_length=64, blank=True, default="")
    edit_token_hash = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)
    current: Any = models.ForeignKey(
        "Version", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # withdrawn by the organiser (None: not withdrawn): kept with its versions, but out of the
    # CSV, the sheets, the metagame and the public lists until restored
    withdrawn_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("id",)
        indexes = (
            models.Index(fields=("event", "player")),
            models.Index(fields=("event", "player_id"), name="decklist_event_player_id"),
        )
        constraints = (
            models.UniqueConstraint(
                fields=("event", "player_id"),
                condition=Q(withdrawn_at__isnull=True) & ~Q(player_id=""),
                name="one_current_list_per_player_id",
            ),
        )

    def __str__(self) -> str:
        return f"{self.event_id}/{self.pk}"


class Version(models.Model):
    decklist = models.ForeignKey(Decklist, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()  # 1, 2, …: the order of submission
    deck = models.TextField()  # exactly as submitted
    submitted_at = models.DateTimeField()
    deck_hash = models.CharField(max_length=64, null=True, blank=True)  # None: unreadable
    legal = models.BooleanField()
    lead = models.CharField(max_length=200, blank=True, default="")  # the lead card's name
    format = models.CharField(max_length=64, blank=True, default="")
    diagnostics = models.JSONField(default=list)  # as `check --output json`, in English
    by_organiser = models.BooleanField(default=False)
    # the card data (and varz-deck) the verdict above is of (service.cards_fingerprint); a
    # current list checked with other data is checked again when `serve` starts
    cards = models.CharField(max_length=64, blank=True, default="")
    # the verdict the player got when submitting (legal, error codes), kept as checked then; when
    # a re-check gives another, `changed_at` says when (None while they agree)
    submitted_legal = models.BooleanField(null=True)
    submitted_errors = models.JSONField(default=list)
    changed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("decklist_id", "number")
        constraints = (
            models.UniqueConstraint(fields=("decklist", "number"), name="one_number_per_version"),
        )
        indexes = (models.Index(fields=("deck_hash",)),)

    def __str__(self) -> str:
        return f"{self.decklist_id}#{self.number}"


class AuditEntry(models.Model):
    """One organiser action on an event (docs/guides/organiser.md "Audit"), with its time; never changed."""

    ACTIONS = (
        "lock",
        "unlock",
        "publish",
        "unpublish",
        "withdraw",
        "restore",
        "submit",  # a list submitted by the organiser for a player
        "replace",  # a list replaced by the organiser
        "roster",  # a roster uploaded
    )
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="audit")
    action = models.CharField(max_length=16, choices=[(a, a) for a in ACTIONS])
    at = models.DateTimeField()
    decklist = models.ForeignKey(
        Decklist, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    detail = models.CharField(max_length=200, blank=True, default="")  # e.g. "12 players"

    class Meta:
        ordering = ("event_id", "at", "id")

    def __str__(self) -> str:
        return f"{self.event_id}:{self.action}"


class RosterEntry(models.Model):
    """A player on the event's roster (docs/guides/organiser.md "Roster"). Their lists are the event's lists of
    the same player id; their personal link `/p/TOKEN` is rebuilt from the server's key and the
    salt (tokens.roster_token), and only its hash is kept, for the look-up."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="roster")
    name = models.CharField(max_length=200)
    player_id = models.CharField(max_length=64)
    email = models.CharField(max_length=254, blank=True, default="")
    salt = models.CharField(max_length=64)
    token_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("event_id", "id")
        constraints = (
            models.UniqueConstraint(fields=("event", "player_id"), name="one_entry_per_player_id"),
        )

    def __str__(self) -> str:
        return f"{self.event_id}/{self.player_id}"


class ServerSecret(models.Model):
    """The key Django signs sessions and CSRF tokens with: made once, kept across restarts."""

    key = models.CharField(max_length=128)
