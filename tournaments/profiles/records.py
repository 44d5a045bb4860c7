"""A general's record across the events a viewer may see, and head to head against another general.

How it counts. The database groups the general's decided battles by the side the general had in them
(event, kind, condition, whether they won it, whether they forfeited it or were the disqualified one,
playoff or not) and counts each group: one aggregate, however many battles. The figures follow from
those counts:

- battles fought: Victories, defeats by a victor, Stalemates and Resolves, playoff battles included
  (they are real battles, as for the rating, R98); forfeits (given and received) and battles not fought
  because of a disqualification (R23) are counted on their own, never as fought;
- OPP per event: what `tournaments.domain.opp_awards` gives one battle of each side (R21-R23, the event's
  forfeit award), times its count; playoff battles give none (R24), so the sum is the OPP of the event's
  tables added up (a tournament's qualifying and final groups, a league's seasons);
- the place in an event (`Place`): a finished tournament's Victor is 1st; anyone else has their place in
  the latest table they are in (the Final Group over a qualifying group, a league's latest season they
  were a member of), ranked as the standings rank it (R24: a playoff's winner first). The place is final
  once the tournament is complete or the league season closed; while the event is in progress it is the
  place so far.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import BooleanField, Case, Count, F, Q, When

from rules_engine.conditions import LABELS, Condition
from tournaments.domain import opp_awards
from tournaments.models import Battle, Event, General, GroupMember, Registration, SeasonMember
from tournaments.standings.queries import ranked_entries
from tournaments.standings.tables import group_standings, result_from_row, season_standings
from tournaments.swiss import standings as swiss_standings

# Registrations that entered the event (a pending or refused one never did).
ENTERED = (Registration.Status.ACTIVE, Registration.Status.ELIMINATED, Registration.Status.WITHDRAWN)
FOUGHT = (Battle.Kind.VICTORY, Battle.Kind.STALEMATE, Battle.Kind.RESOLVE, Battle.Kind.DRAW)


@dataclass
class Figures:
    """What a general's decided battles add up to (the module's docstring says what counts where)."""

    battles: int = 0  # fought: Victories, defeats, Stalemates, Resolves (playoffs included)
    victories: int = 0  # fought and won; a forfeit received is counted in forfeits_received
    victories_by_condition: dict = field(default_factory=lambda: dict.fromkeys(Condition, 0))
    stalemates: int = 0
    resolves: int = 0
    draws: int = 0  # the games without an engine (game_systems): no winner
    defeats: int = 0  # fought and lost to a victor
    forfeits_given: int = 0  # this general forfeited
    forfeits_received: int = 0  # the opponent forfeited
    not_fought: int = 0  # scheduled, not fought because a general was disqualified (R23)

    def add(self, side, count):
        kind = side["kind"]
        if kind == Battle.Kind.VICTORY:
            if side["won"]:
                self.victories += count
                if side["condition"]:  # only WARLINE names a victory condition
                    self.victories_by_condition[Condition(side["condition"])] += count
            else:
                self.defeats += count
        elif kind == Battle.Kind.STALEMATE:
            self.stalemates += count
        elif kind == Battle.Kind.RESOLVE:
            self.resolves += count
        elif kind == Battle.Kind.DRAW:
            self.draws += count
        elif kind == Battle.Kind.FORFEIT:
            if side["gave"]:
                self.forfeits_given += count
            else:
                self.forfeits_received += count
        elif kind == Battle.Kind.UNPLAYED_DQ:
            self.not_fought += count
        if kind in FOUGHT:
            self.battles += count

    def conditions(self):
        """[(condition, its words, Victories by it)] in the vocabulary's order."""
        return [(condition, LABELS[condition], self.victories_by_condition[condition]) for condition in Condition]


@dataclass(frozen=True)
class Place:
    label: str  # "1", "3=" (shared after every tie-breaker)
    table: str  # the group's or season's name; empty for the Victor
    final: bool  # False while the event is in progress: the place so far
    disqualified: bool = False  # keeps the place the figures give (R23)
    victor: bool = False  # the tournament's Victor


@dataclass(frozen=True)
class EventLine:
    event: Event
    opp: int | None  # None: a game without OPP (game_systems other than WARLINE)
    figures: Figures
    place: Place | None  # None: no table yet (e.g. groups not formed)


@dataclass(frozen=True)
class Record:
    totals: Figures
    events: list  # EventLine, latest event first


def sides_of(general, battles):
    """One row per side the general had in the decided battles of `battles`: event, kind, condition,
    won, gave (forfeited, or the disqualified one of a battle not fought), playoff, and how many."""
    mine = Q(general_a=general) | Q(general_b=general)
    return (battles.filter(mine).exclude(kind="").order_by()
            .annotate(won=Case(When(winner_id=general.pk, then=True), default=False, output_field=BooleanField()),
                      gave=Case(When(forfeited_by_id=general.pk, then=True), default=False,
                                output_field=BooleanField()))
            .values("event_id", "kind", "condition", "won", "gave", "playoff")
            .annotate(count=Count("id")))


def side_opp(side, forfeit_award):
    """The OPP one battle of this side gives the general, from the domain's rules (R21-R23)."""
    me, other = 1, 2
    winner = (me if side["won"] else other) if side["kind"] == Battle.Kind.VICTORY else None
    forfeited_by = (me if side["gave"] else other) if side["kind"] in (Battle.Kind.FORFEIT,
                                                                        Battle.Kind.UNPLAYED_DQ) else None
    result = result_from_row(me, other, side["kind"], winner, side["condition"], forfeited_by, side["playoff"])
    return opp_awards(result, forfeit_award)[str(me)]


def place_in(event, general, groups, seasons):
    """The general's place in the event (the module's docstring has the rule), or None."""
    tournament_done = event.state == Event.State.COMPLETE
    if event.victor_id == general.pk:
        return Place(label="1", table="", final=tournament_done, victor=True)
    if event.format == Event.Format.SWISS:
        return _place_in_swiss(event, general, final=tournament_done)
    if groups:
        group = max(groups, key=lambda g: (g.stage == g.Stage.FINAL, g.index))
        winner = event.victor if group.stage == group.Stage.FINAL and event.victor_id else group.winner
        return _place_in_table(group_standings(group), general, winner, group.name, final=tournament_done)
    if seasons:
        season = max(seasons, key=lambda s: s.number)
        return _place_in_table(season_standings(season), general, season.champion, season.name,
                               final=season.state == season.State.CLOSED)
    return None


def _place_in_swiss(event, general, *, final):
    rows = swiss_standings.compute(event)
    shared = swiss_standings.shared_ranks(rows)
    for row in rows:
        if row.id == general.pk:
            return Place(label=f"{row.rank}{'=' if row.rank in shared else ''}", table="the Swiss standings",
                         final=final)
    return None


def _place_in_table(table, general, winner, name, *, final):
    for row, listed, label in ranked_entries(table, winner=winner):
        if listed.pk == general.pk:
            return Place(label=label, table=name, final=final, disqualified=row.disqualified)
    return None


def record(general, events):
    """The general's `Record` over the events of `events` (a queryset of the events the viewer may see)."""
    sides = list(sides_of(general, Battle.objects.filter(event__in=events)))
    entered = set(Registration.objects.filter(general=general, event__in=events, status__in=ENTERED)
                  .values_list("event_id", flat=True))
    event_ids = entered | {side["event_id"] for side in sides}
    by_event = {event.pk: event for event in Event.objects.filter(pk__in=event_ids).select_related("victor")
                .order_by(F("starts_on").desc(nulls_last=True), "-created_at", "-id")}
    groups = {}
    for member in GroupMember.objects.filter(general=general, group__event_id__in=event_ids).select_related(
            "group", "group__winner"):
        groups.setdefault(member.group.event_id, []).append(member.group)
    seasons = {}
    for member in SeasonMember.objects.filter(general=general, season__event_id__in=event_ids).select_related(
            "season", "season__champion"):
        seasons.setdefault(member.season.event_id, []).append(member.season)

    totals = Figures()
    per_event = {pk: [Figures(), 0] for pk in by_event}
    for side in sides:
        figures_and_opp = per_event[side["event_id"]]
        figures_and_opp[0].add(side, side["count"])
        event = by_event[side["event_id"]]
        if event.game_system.adjudicated:  # OPP are WARLINE's (R21-R23)
            figures_and_opp[1] += side_opp(side, event.forfeit_award) * side["count"]
        totals.add(side, side["count"])
    lines = [EventLine(event=event, opp=per_event[pk][1] if event.game_system.adjudicated else None,
                       figures=per_event[pk][0],
                       place=place_in(event, general, groups.get(pk, []), seasons.get(pk, [])))
             for pk, event in by_event.items()]
    return Record(totals=totals, events=lines)


@dataclass(frozen=True)
class HeadToHead:
    general: object
    other: object
    general_figures: Figures  # the general's side of their battles against each other
    other_figures: Figures
    battles: list  # every battle between them, decided or not, latest first


def between(general, other, events):
    """The battles of `general` against `other` in `events`."""
    return Battle.objects.filter(Q(general_a=general, general_b=other) | Q(general_a=other, general_b=general),
                                 event__in=events)


def head_to_head(general, other, events):
    """Both generals' Victories, Stalemates, Resolves and forfeits against each other, and their battles."""
    battles = between(general, other, events)
    figures = {}
    for who in (general, other):
        figures[who.pk] = Figures()
        for side in sides_of(who, battles):
            figures[who.pk].add(side, side["count"])
    listed = list(battles.select_related("event", "group", "season", "general_a", "general_b", "winner",
                                         "forfeited_by")
                  .order_by(F("decided_at").desc(nulls_first=True), "-event__created_at", "-round", "-number"))
    return HeadToHead(general=general, other=other, general_figures=figures[general.pk],
                      other_figures=figures[other.pk], battles=listed)


def opponents(general, events):
    """The generals `general` has a battle against in `events` (decided or not), by name."""
    pairs = Battle.objects.filter(Q(general_a=general) | Q(general_b=general), event__in=events).order_by()
    met = {pk for pair in pairs.values_list("general_a_id", "general_b_id").distinct() for pk in pair}
    met.discard(general.pk)
    return list(General.objects.filter(pk__in=met).order_by("name", "id"))
