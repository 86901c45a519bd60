"""The HTML pages of `varz-deck serve` (docs/guides/organiser.md): players, the organiser, judges, the public.

- public.py: the submission page, the live check, the private link, the published lists;
- organiser.py: the dashboard, lock/unlock/publish/unpublish (confirmation pages), withdraw and
  restore a list, sheets, CSV, a list for a player, the judge;
- roster.py: the roster page, the links CSV, the dashboard's roster and audit sections, and a
  player's personal link `/p/TOKEN`;
- forms.py: the pages' Django forms; viewmodels.py: the models as the templates show them;
- texts.py: every page text (`msg(...)`, context "page"); render.py: a page in its language.

Every write goes through `service`. The templates (templates/pages/) auto-escape; every text from
a player or a deck is also passed through `safe` (controls, terminal escapes and bidi controls
made visible), and the whole page once more through `clean_output` before it is sent. No inline
script anywhere (the CSP forbids it); every form that changes data carries `{% csrf_token %}`.
Page texts are rendered in the chosen language: `?lang=`, a form's `lang`, the `varzdeck_lang`
cookie a `?lang=` sets, else Accept-Language. Nothing here names a game: what differs between
games (the lead card's title, the game's name, the sections) comes from the game.
"""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, include, path

from varz_deck.server.views import judge, organiser, public, roster

event_pages: list[URLPattern] = [
    path("submit", public.submit, name="page-submit"),
    path("check", public.check, name="page-check"),
    path("dashboard", organiser.dashboard, name="page-dashboard"),
    path("lock", organiser.lock, name="page-lock"),
    path("unlock", organiser.unlock, name="page-unlock"),
    path("publish", organiser.publish, name="page-publish"),
    path("unpublish", organiser.unpublish, name="page-unpublish"),
    path("sheets", organiser.sheets, name="page-sheets"),
    path("export.csv", organiser.export_csv, name="page-export"),
    path("add", organiser.add_for_player, name="page-add"),
    path("decklists/<str:number>", organiser.organiser_decklist, name="page-organiser-list"),
    path("decklists/<str:number>/withdraw", organiser.withdraw, name="page-withdraw"),
    path("decklists/<str:number>/restore", organiser.restore, name="page-restore"),
    path("judge", judge.judge, name="page-judge"),
    path("roster", roster.roster, name="page-roster"),
    path("roster.csv", roster.roster_csv, name="page-roster-csv"),
    path("public", public.public, name="page-public"),
    path("public/<str:number>", public.public_figures, name="page-public-figures"),
]

urlpatterns: list[URLPattern | URLResolver] = [
    path("", public.home, name="page-home"),
    path("events/<str:key>/", include(event_pages)),
    path("decklists/<str:number>/<str:token>", public.private_link, name="page-decklist"),
    path(
        "decklists/<str:number>/<str:token>/report",
        public.private_figures,
        name="page-decklist-figures",
    ),
    path("p/<str:token>", roster.personal_link, name="page-personal"),
]
