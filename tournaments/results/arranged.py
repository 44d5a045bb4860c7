"""League battles the members arranged themselves (no schedule): scheduled and decided in one step,
by an organizer's result or by a member's report through the same submission as any report."""
from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments import trust
from tournaments.domain import Conflict, DomainError
from tournaments.leagues import seasons
from tournaments.results import reporting
from tournaments.results.recording import record_result


@transaction.atomic
def record_arranged_battle(season, general_a, general_b, *, actor=None, **result):
    """An organizer records a battle the members arranged: scheduled and decided in one step."""
    battle = seasons.schedule_battle(season, general_a, general_b, actor=actor)
    return record_result(battle, actor=actor, **result)


@transaction.atomic
def report_arranged_battle(season, *, user, me, opponent, **report):
    """A member reports a battle they arranged: scheduled and reported in one step through the same
    submission as any report (reporting.submit_report), so a refused report leaves no battle."""
    if me is None:
        raise DomainError(_("Only members of %(event)s report league battles; your account has no general.")
                          % {"event": season.event.name}, field="general")
    if opponent is None:
        raise DomainError(_("Name your opponent."), field="opponent")
    if season.event.disqualifications.filter(general=me).exists():
        raise Conflict(_("%(me)s is disqualified from %(event)s and reports no more battles (R23).")
                       % {"me": me.name, "event": season.event.name})
    trust.require(trust.may_report_arranged(user, season), trust.not_a_member(season))
    battle = seasons.add_battle(season, me, opponent, actor=user)
    return reporting.submit_report(battle, user=user, **report)
