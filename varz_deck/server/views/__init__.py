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

from django.urls import URLPattern, path

from varz_deck.server.views import judge, organiser, public, roster

urlpatterns: list[URLPattern] = [
    path("", public.home, name="page-home"),
    path("events/<str:key>/submit", public.submit, name="page-submit"),
    path("events/<str:key>/check", public.check, name="page-check"),
    path("decklists/<str:number>/<str:token>", public.private_link, name="page-decklist"),
    path(
        "decklists/<str:number>/<str:token>/report",
        public.private_figures,
        name="page-decklist-figures",
    ),
    path("events/<str:key>/dashboard", organiser.dashboard, name="page-dashboard"),
    path("events/<str:key>/lock", organiser.lock, name="page-lock"),
    path("events/<str:key>/unlock", organiser.unlock, name="page-unlock"),
    path("events/<str:key>/publish", organiser.publish, name="page-publish"),
    path("events/<str:key>/unpublish", organiser.unpublish, name="page-unpublish"),
    path("events/<str:key>/sheets", organiser.sheets, name="page-sheets"),
    path("events/<str:key>/export.csv", organiser.export_csv, name="page-export"),
    path("events/<str:key>/add", organiser.add_for_player, name="page-add"),
    path(
        "events/<str:key>/decklists/<str:number>",
        organiser.organiser_decklist,
        name="page-organiser-list",
    ),
    path(
        "events/<str:key>/decklists/<str:number>/withdraw",
        organiser.withdraw,
        name="page-withdraw",
    ),
    path(
        "events/<str:key>/decklists/<str:number>/restore",
        organiser.restore,
        name="page-restore",
    ),
    path("events/<str:key>/judge", judge.judge, name="page-judge"),
    path("events/<str:key>/roster", roster.roster, name="page-roster"),
    path("events/<str:key>/roster.csv", roster.roster_csv, name="page-roster-csv"),
    path("p/<str:token>", roster.personal_link, name="page-personal"),
    path("events/<str:key>/public", public.public, name="page-public"),
    path("events/<str:key>/public/<str:number>", public.public_figures, name="page-public-figures"),
]
