"""An Organized Play group's tie-breakers in the reader's language. The figures and their English names
are defined in tournaments.domain, which imports no Django; they are translated here, where the pages take
them (a Swiss event's tie-breakers: tournaments.swiss.standings.swiss_words)."""
from __future__ import annotations

from dataclasses import replace

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from tournaments.domain import TIEBREAKERS

# An Organized Play group's figures (R24), by key: (label, column heading). The victory conditions in them
# (Shackle, Crush, Paralyze, Blunt) and Resolve are WARLINE's own names and stay English.
GROUP_WORDS = {
    "opp": (_("Organized Play Points"), "OPP"),
    "victories": (_("Victories"), pgettext_lazy("victories, a column heading", "V")),
    "shackle_victories": (_("Victories by Shackle"), "Sh"),
    "crush_victories": (_("Victories by Crush"), "Cr"),
    "paralyze_victories": (_("Victories by Paralyze"), "Pa"),
    "blunt_victories": (_("Victories by Blunt"), "Bl"),
    "stalemate_defeats": (_("Defeats by Stalemate"), pgettext_lazy("defeats by Stalemate, a column heading", "St")),
    "resolve_defeats": (_("Defeats by Resolve"), "Re"),
}


def group_tiebreakers():
    """TIEBREAKERS with their label and heading in the reader's language (a figure without words here
    keeps its English ones)."""
    return tuple(replace(metric, label=GROUP_WORDS[metric.key][0], short=GROUP_WORDS[metric.key][1])
                 if metric.key in GROUP_WORDS else metric for metric in TIEBREAKERS)
