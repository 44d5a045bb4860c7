"""Organized-play records. The models only store; the rules live in `tournaments.domain` (pure
functions) and every change goes through `tournaments.events.services`, one transaction per step."""
import secrets
from datetime import timedelta

from django.conf import settings
from django.db import models
from django.utils.translation import get_language, gettext
from django.utils.translation import gettext_lazy as _

import game_systems
from rules_engine.conditions import LABELS
from rules_engine.conditions import Condition as VictoryCondition
from tournaments.domain import ForfeitAward
from tournaments.timezones import default_time_zone, validate_time_zone

VARIANT_CHOICES = [
    ("battle_arts", _("Battle Arts")),
    ("army_recruiting", _("Army Recruiting")),
    ("terrain", _("Battlefield Terrain")),
    ("double_time", _("Double Time")),
]
VARIANT_KEYS = [key for key, _label in VARIANT_CHOICES]


def new_signup_code():
    return secrets.token_urlsafe(12)


def label_in_sentence(label):
    """A record's label (a report's status, a season's state) inside a sentence. English writes it in
    lower case ("This report is confirmed."); German keeps its capitals, because its nouns are
    capitalized and its sentences quote the label („Ersetzt durch eine neuere Meldung“)."""
    label = str(label)
    return label.lower() if (get_language() or "en").startswith("en") else label


def name_key(name):
    """Names compared ignoring case and spaces: "goran  golub" is "Goran Golub"."""
    return "".join(str(name).split()).casefold()


class General(models.Model):
    """A player: at most one per user, their identity across events and leagues. A general an
    organizer creates for someone without an account stays unclaimed until its player claims it
    with the one-use `claim_code` the organizer hands out."""

    name = models.CharField(max_length=120)
    name_key = models.CharField(max_length=120, db_index=True, editable=False, default="",
                                help_text="The name without case and spaces, for finding the same general.")
    claim_code = models.CharField(max_length=40, blank=True, default="", editable=False,
                                  help_text="One-use code with which the player claims this general.")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    user = models.OneToOneField(settings.AUTH_USER_MODEL, null=True, blank=True,
                                on_delete=models.SET_NULL, related_name="general")
    external_id = models.CharField(max_length=60, blank=True, default="",
                                   help_text="e.g. a league membership number")
    player_left_at = models.DateTimeField(
        null=True, blank=True, editable=False,
        help_text="When its player deleted their account: the record stays, nobody can claim or enter it again.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            models.UniqueConstraint(fields=["external_id"], condition=~models.Q(external_id=""),
                                    name="general_external_id_unique"),
        ]

    def __str__(self):
        return self.name

    def save(self, *args, **kwargs):
        self.name_key = name_key(self.name)
        if self.pk is None and self.user_id is None and not self.claim_code:
            self.claim_code = secrets.token_urlsafe(12)
        if kwargs.get("update_fields") and "name" in kwargs["update_fields"]:
            kwargs["update_fields"] = {*kwargs["update_fields"], "name_key"}
        super().save(*args, **kwargs)

    @property
    def is_claimed(self):
        return self.user_id is not None

    @property
    def key(self):
        """The id the pure domain functions know this general by."""
        return str(self.pk)


class Event(models.Model):
    class Kind(models.TextChoices):
        TOURNAMENT = "tournament", _("Tournament")
        LEAGUE = "league", _("League")

    class State(models.TextChoices):
        REGISTRATION = "registration", _("Registration")
        REGISTRATION_CLOSED = "registration_closed", _("Registration closed")
        QUALIFYING = "qualifying", _("Qualifying Stage")
        FINAL = "final", _("Final Stage")
        PLAYOFF = "playoff", _("Final playoff")
        COMPLETE = "complete", _("Complete")
        # A league's state follows its seasons (tournaments.leagues.seasons): one in play, or none.
        IN_SEASON = "in_season", _("Season in play")
        OFF_SEASON = "off_season", _("Between seasons")

    class Format(models.TextChoices):
        GROUPS = "groups", _("Organized Play groups and round robins")
        SWISS = "swiss", _("Swiss rounds")

    class ListVisibility(models.TextChoices):
        CLOSED = "closed", _("Closed: only the organizers see the lists")
        OPEN = "open", _("Open: everyone sees the lists (from a date)")

    name = models.CharField(max_length=160)
    slug = models.SlugField(max_length=80, unique=True)
    kind = models.CharField(max_length=12, choices=Kind.choices, default=Kind.TOURNAMENT)
    game = models.CharField(max_length=30, choices=game_systems.choices, default=game_systems.DEFAULT_GAME,
                            help_text="The game the event is played in; chosen when the event is created.")
    format = models.CharField(max_length=10, choices=Format.choices, default=Format.GROUPS,
                              help_text="How the rounds are paired; fixed once the event starts.")
    swiss_rounds = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Swiss rounds to play; empty: ceil(log2 of the field) when the first "
                                         "round is paired.")
    top_cut = models.PositiveSmallIntegerField(
        default=0, help_text="Players in the single-elimination top cut after the Swiss rounds: 0 (none), 4, 8 "
                             "or 16.")
    table_size = models.PositiveSmallIntegerField(
        default=2, help_text="Players at one table: 2 (matches) or, where the game allows, 3 or 4 (multiplayer "
                             "tables seated by score).")
    placement_points = models.JSONField(
        default=list, blank=True, help_text="Multiplayer tables: points by finishing place, first place first; "
                                            "empty: 4, 2, 1, 0.")
    scoring = models.JSONField(default=dict, blank=True,
                               help_text="Points per outcome (win, draw, loss, bye); empty: the game's default.")
    tie_breakers = models.JSONField(default=list, blank=True,
                                    help_text="The Swiss tie-breakers in order; empty: the game's default.")
    list_deadline = models.DateTimeField(null=True, blank=True,
                                         help_text="Lists lock then (and at the latest when registration closes).")
    list_visibility = models.CharField(max_length=8, choices=ListVisibility.choices,
                                       default=ListVisibility.CLOSED)
    lists_public_from = models.DateTimeField(null=True, blank=True,
                                             help_text="Open lists: shown to everyone from then (empty: once "
                                                       "they lock).")
    list_options = models.JSONField(default=dict, blank=True,
                                    help_text="The game's list options (its spec's section 2), e.g. points_limit.")
    list_pool = models.TextField(blank=True, default="",
                                 help_text="The organizer's card pool or model list, CSV exactly as uploaded.")
    organizers = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="organized_events",
                                        blank=True)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                              related_name="owned_events",
                              help_text="The organizer who created the event (or to whom it was handed over); "
                                        "co-organizers cannot remove them.")
    variants = models.JSONField(default=list, blank=True,
                                help_text="Elected Rules Variants and Modules; fixed once the event starts.")
    battalion_count = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Battalions per army with Army Recruiting (at least 6).")
    board_width = models.PositiveSmallIntegerField(
        default=7, help_text="Columns of the battlefield every battle of the event is played on (1-26; default 7).")
    board_height = models.PositiveSmallIntegerField(
        default=7, help_text="Rows of the battlefield (1-26; default 7); fixed once the event starts.")
    forfeit_award_opp = models.SmallIntegerField(default=1, help_text="R22: OPP for the opponent of a forfeit.")
    forfeit_counts_as_victory = models.BooleanField(default=True)
    forfeits_to_disqualify = models.PositiveSmallIntegerField(
        null=True, blank=True, default=2,
        help_text="Forfeits after which disqualification is offered; empty: never.")
    state = models.CharField(max_length=20, choices=State.choices, default=State.REGISTRATION)
    confirmation_minutes = models.PositiveIntegerField(
        default=30, help_text="How long a general has to confirm or dispute the opponent's report before it "
                              "counts by itself (defaults: 30 minutes for a tournament, 3 days for a league).")
    pair_battles_per_season = models.PositiveSmallIntegerField(
        default=1, help_text="R111 (leagues): counted battles one pair of members may have in a season; "
                             "fixed before the first season opens.")
    group_seed = models.BigIntegerField(null=True, blank=True,
                                        help_text="Seed of the random group assignment, shown to everyone.")
    group_method = models.CharField(max_length=10, blank=True, default="")
    victor = models.ForeignKey(General, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    published = models.BooleanField(default=True)
    rated = models.BooleanField(
        default=False, help_text="Its counted battles enter the players' Glicko-2 ratings (R98); chosen before "
                                 "the event starts.")
    approve_registrations = models.BooleanField(
        default=False, help_text="Each player's registration waits for an organizer's approval.")
    starts_on = models.DateField(null=True, blank=True)
    ends_on = models.DateField(null=True, blank=True, help_text="Last day; empty: a one-day event (or a league "
                                                                 "without an end).")
    venue = models.CharField(max_length=160, blank=True, default="")
    description = models.TextField(blank=True, default="", help_text="A few lines for the event list.")
    time_zone = models.CharField(max_length=64, default=default_time_zone, validators=[validate_time_zone],
                                 help_text="IANA name, e.g. Europe/Berlin: every time of the event is shown in it.")
    embed_origins = models.TextField(
        blank=True, default="",
        help_text="Other sites that may show this event's standings widget in a frame: one origin a line, "
                  "e.g. https://club.example; * for any site; empty: this site only.")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "id"]
        permissions = [("organize_events", "Can create events and organize them")]

    def __str__(self):
        return self.name

    @property
    def confirmation_window(self):
        return timedelta(minutes=self.confirmation_minutes)

    @property
    def forfeit_award(self):
        return ForfeitAward(opp=self.forfeit_award_opp, counts_as_victory=self.forfeit_counts_as_victory)

    @property
    def has_started(self):
        if self.kind == self.Kind.LEAGUE:
            return self.seasons.exists()
        return self.state not in (self.State.REGISTRATION, self.State.REGISTRATION_CLOSED)

    @property
    def status_label(self):
        """What the event is doing now; a league is as open as its latest season."""
        if self.kind == self.Kind.LEAGUE:
            season = self.seasons.order_by("-number").first()
            if season is None:
                return gettext("No season yet")
            return f"{season.name}: {season.get_state_display()}"
        return self.get_state_display()

    def active_registrations(self):
        """The generals in the event now: not withdrawn, not eliminated."""
        return self.registrations.filter(status=Registration.Status.ACTIVE).select_related("general")

    def current_season(self):
        """A league's season not closed yet (open, or deciding its champion), if any."""
        return self.seasons.exclude(state=Season.State.CLOSED).order_by("-number").first()

    def season_taking_battles(self):
        """A league's open season, where battles are scheduled and reported, if any."""
        return self.seasons.filter(state=Season.State.OPEN).order_by("-number").first()

    @property
    def game_system(self):
        return game_systems.get(self.game)

    @property
    def is_swiss(self):
        return self.format == self.Format.SWISS

    def variant_labels(self):
        labels = dict(VARIANT_CHOICES)
        return [labels.get(key, key) for key in self.variants] or ["Core Rules only"]


class Registration(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", _("Registered")
        PENDING = "pending", _("Awaiting the organizers' approval")
        REFUSED = "refused", _("Refused by the organizers")
        ELIMINATED = "eliminated", _("Eliminated")
        WITHDRAWN = "withdrawn", _("Withdrawn")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="registrations")
    general = models.ForeignKey(General, on_delete=models.PROTECT, related_name="registrations")
    number = models.PositiveIntegerField(help_text="Order of registration, 1 first.")
    seed = models.PositiveIntegerField(null=True, blank=True, help_text="Organizer's seeding, 1 best.")
    seed_rating = models.FloatField(null=True, blank=True,
                                    help_text="The rating the general was seeded by when groups were formed by "
                                              "rating (empty: unrated, or not seeded by rating).")
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.ACTIVE)
    status_reason = models.TextField(blank=True, default="")
    registered_at = models.DateTimeField(auto_now_add=True)
    dropped_after_round = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Swiss: the last round the player played before dropping; they keep "
                                         "their place in the standings and are not paired again.")

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "general"], name="registration_once_per_event"),
            models.UniqueConstraint(fields=["event", "number"], name="registration_number_unique"),
        ]

    def __str__(self):
        return f"{self.general} in {self.event}"


class Season(models.Model):
    """One season of a league: its own members, battles and standings. Its state moves on by
    itself once the organizer closes it (tournaments.leagues.seasons): open -> closing -> playoff -> closed."""

    class State(models.TextChoices):
        OPEN = "open", _("Open")
        CLOSING = "closing", _("Closing")
        PLAYOFF = "playoff", _("Playoff")
        CLOSED = "closed", _("Closed")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="seasons")
    number = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=120)
    state = models.CharField(max_length=10, choices=State.choices, default=State.OPEN)
    champion = models.ForeignKey(General, null=True, blank=True, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["event", "number"]
        constraints = [models.UniqueConstraint(fields=["event", "number"], name="season_number_unique")]

    def __str__(self):
        return f"{self.event} – {self.name}"


class SeasonMember(models.Model):
    """Who a season held: the league's members when it opened and those who joined while it was
    open. A closed season's standings are computed from these rows, so later registrations and
    withdrawals never change them."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="memberships")
    general = models.ForeignKey(General, on_delete=models.PROTECT, related_name="season_memberships")
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["season", "joined_at", "id"]
        constraints = [models.UniqueConstraint(fields=["season", "general"], name="season_member_once")]

    def __str__(self):
        return f"{self.general} in {self.season}"


class Group(models.Model):
    """A round-robin group: a qualifying group or the final group of a tournament."""

    class Stage(models.TextChoices):
        QUALIFYING = "qualifying", _("Qualifying Stage")
        FINAL = "final", _("Final Stage")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="groups")
    stage = models.CharField(max_length=12, choices=Stage.choices)
    index = models.PositiveSmallIntegerField(help_text="0 for group A, 1 for B, …")
    name = models.CharField(max_length=40)
    winner = models.ForeignKey(General, null=True, blank=True, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["event", "stage", "index"]
        constraints = [models.UniqueConstraint(fields=["event", "stage", "index"], name="group_index_unique")]

    def __str__(self):
        return f"{self.event} – {self.name}"


class GroupMember(models.Model):
    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="members")
    general = models.ForeignKey(General, on_delete=models.PROTECT, related_name="group_memberships")
    position = models.PositiveSmallIntegerField(help_text="Order in the group (the schedule's table number).")

    class Meta:
        ordering = ["group", "position"]
        constraints = [models.UniqueConstraint(fields=["group", "general"], name="group_member_once")]

    def __str__(self):
        return f"{self.general} in {self.group}"


class Battle(models.Model):
    """A scheduled battle and, once decided, its result. OPP are never stored: they follow from the
    outcome (R21-R23) whenever standings are computed."""

    class Kind(models.TextChoices):
        VICTORY = "victory", _("Victory")
        STALEMATE = "stalemate", _("Stalemate")
        RESOLVE = "resolve", _("Resolve")
        FORFEIT = "forfeit", _("Forfeit")
        UNPLAYED_DQ = "unplayed_dq", _("Not fought (disqualification)")
        # The games without an engine (game_systems.common.PLAIN_RESULT_KINDS); never in a WARLINE event,
        # so the Organized Play domain (tournaments.domain.outcomes) has no draw.
        DRAW = "draw", _("Draw")

    # The victory conditions and their words: the one vocabulary of rules_engine/conditions.py.
    Condition = models.TextChoices("Condition", [(condition.name, (condition.value, LABELS[condition]))
                                                 for condition in VictoryCondition])

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="battles")
    group = models.ForeignKey(Group, null=True, blank=True, on_delete=models.CASCADE, related_name="battles")
    season = models.ForeignKey(Season, null=True, blank=True, on_delete=models.CASCADE, related_name="battles")
    swiss_round = models.ForeignKey("SwissRound", null=True, blank=True, on_delete=models.CASCADE,
                                    related_name="battles")
    round = models.PositiveSmallIntegerField(default=1)
    number = models.PositiveSmallIntegerField(help_text="Battle number within its group or season.")
    general_a = models.ForeignKey(General, on_delete=models.PROTECT, related_name="+")
    general_b = models.ForeignKey(General, on_delete=models.PROTECT, related_name="+")
    playoff = models.BooleanField(default=False, help_text="R24: never changes OPP totals.")
    kind = models.CharField(max_length=12, choices=Kind.choices, blank=True, default="",
                            help_text="Empty while the battle is not decided.")
    winner = models.ForeignKey(General, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    condition = models.CharField(max_length=20, choices=Condition.choices, blank=True, default="")
    forfeited_by = models.ForeignKey(General, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    player_1 = models.ForeignKey(General, null=True, blank=True, on_delete=models.PROTECT, related_name="+",
                                 help_text="Who was Player-1 at the table (decided by the Challenge).")
    respect_shown = models.BooleanField(null=True, blank=True,
                                        help_text="General Respect shown before the battle.")
    facts = models.JSONField(default=dict, blank=True,
                             help_text="The raw facts of the game's result (its game system's result_facts).")
    decided_at = models.DateTimeField(null=True, blank=True)
    first_decided_at = models.DateTimeField(
        null=True, blank=True, help_text="When a result first counted; a correction keeps it (R98: the battle's "
                                         "rating week stays the week it was played).")

    class Meta:
        ordering = ["event", "group", "season", "playoff", "round", "number"]
        constraints = [
            models.CheckConstraint(condition=~models.Q(general_a=models.F("general_b")),
                                   name="battle_two_generals"),
        ]

    def __str__(self):
        return f"{self.general_a} v {self.general_b}"

    @property
    def is_decided(self):
        return bool(self.kind)

    def generals(self):
        return (self.general_a, self.general_b)

    def opponent_of(self, general):
        return self.general_b if general.pk == self.general_a_id else self.general_a

    def involves(self, general):
        return general.pk in (self.general_a_id, self.general_b_id)

    def outcome_text(self):
        if not self.kind:
            return gettext("Not played yet")
        if self.kind == self.Kind.VICTORY:
            if not self.condition:  # the games without victory conditions (game_systems)
                return gettext("%(winner)s wins") % {"winner": self.winner}
            return gettext("%(winner)s wins by %(condition)s") % {"winner": self.winner,
                                                                   "condition": self.get_condition_display()}
        if self.kind == self.Kind.FORFEIT:
            return gettext("%(general)s forfeits") % {"general": self.forfeited_by}
        return self.get_kind_display()


class SwissRound(models.Model):
    """One paired round of a Swiss event (tournaments.swiss), or a round of its top cut."""

    class Stage(models.TextChoices):
        SWISS = "swiss", _("Swiss round")
        TOP_CUT = "top_cut", _("Top cut")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="swiss_rounds_paired")
    stage = models.CharField(max_length=8, choices=Stage.choices, default=Stage.SWISS)
    number = models.PositiveSmallIntegerField()
    bye = models.ForeignKey(General, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    rematches = models.PositiveSmallIntegerField(default=0, help_text="Rematches no pairing could avoid.")
    paired_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event", "stage", "number"]
        constraints = [models.UniqueConstraint(fields=["event", "stage", "number"], name="swiss_round_once")]

    def __str__(self):
        return f"{self.get_stage_display()} {self.number}"  # "Swiss round 2": the stage's label is translated


class Table(models.Model):
    """A multiplayer table of a Swiss round (Warlord CCG, 3-4 players): its seats and, once counted, its
    elimination order (tournaments.swiss.tables)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="tables")
    swiss_round = models.ForeignKey(SwissRound, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    eliminations = models.JSONField(default=list, blank=True,
                                    help_text="The counted elimination order: general ids, first out first.")
    finished = models.BooleanField(null=True, blank=True,
                                   help_text="Empty while not decided; false: time ran out with players left.")
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["swiss_round", "number"]
        constraints = [models.UniqueConstraint(fields=["swiss_round", "number"], name="table_number_once")]

    def __str__(self):
        return f"{self.swiss_round} table {self.number}"

    @property
    def is_decided(self):
        return self.finished is not None


class TableSeat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    general = models.ForeignKey(General, on_delete=models.PROTECT, related_name="+")
    seat = models.PositiveSmallIntegerField(help_text="Clockwise order at the table, 1 first.")

    class Meta:
        ordering = ["table", "seat"]
        constraints = [models.UniqueConstraint(fields=["table", "general"], name="table_seat_once")]

    def __str__(self):
        return f"{self.general} at {self.table}"


class TableReport(models.Model):
    """A table's result as one of its players (or an organizer) reported it: it counts once every
    other player at the table confirmed it, or an organizer decided."""

    class Status(models.TextChoices):
        AWAITING = "awaiting", _("Waiting for the other players' confirmation")
        CONFIRMED = "confirmed", _("Confirmed by every player")
        DISPUTED = "disputed", _("Disputed: an organizer decides")
        SUPERSEDED = "superseded", _("Replaced")
        DECIDED = "decided", _("Decided by an organizer")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="reports")
    reported_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                                    related_name="+")
    eliminations = models.JSONField(default=list, help_text="General ids, first out first.")
    finished = models.BooleanField(default=True)
    confirmed_by = models.JSONField(default=list, help_text="Ids of the generals who stand behind it.")
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.AWAITING)
    status_reason = models.TextField(blank=True, default="")
    confirm_by = models.DateTimeField(null=True, blank=True, db_index=True,
                                      help_text="When the report counts by itself unless a player at the table "
                                                "disputes it (the event's confirmation window, R75); empty: an "
                                                "organizer decides.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return f"Report on {self.table}"


class ListVersion(models.Model):
    """One submission (or withdrawal) of a player's deck or army list; every version is kept with its time
    (tournaments.lists). The newest version is the player's list."""

    registration = models.ForeignKey(Registration, on_delete=models.CASCADE, related_name="list_versions")
    version = models.PositiveIntegerField()
    submitted_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                                     related_name="+")
    submitted_at = models.DateTimeField(auto_now_add=True)
    text = models.TextField(blank=True, default="", help_text="The list exactly as submitted (JSON).")
    content = models.JSONField(null=True, blank=True, help_text="The list as read; empty: withdrawn.")
    violations = models.JSONField(default=list, blank=True,
                                  help_text="The checker's violations [{code, message}] against the event's pool "
                                            "and options when last checked.")
    accepted_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                    related_name="+")
    accepted_reason = models.TextField(blank=True, default="")
    accepted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["registration", "-version"]
        constraints = [models.UniqueConstraint(fields=["registration", "version"], name="list_version_once")]

    def __str__(self):
        return f"List {self.version} of {self.registration}"

    @property
    def withdrawn(self):
        return self.content is None

    @property
    def status(self):
        if self.content is None:
            return "withdrawn"
        if not self.violations:
            return "valid"
        return "accepted" if self.accepted_at else "violations"


class Disqualification(models.Model):
    class Reason(models.TextChoices):
        FORFEITS = "forfeits", _("Forfeit count reached")
        RESPECT = "respect", _("Refused General Respect")
        CONDUCT = "conduct", _("Conduct")
        OTHER = "other", _("Other")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="disqualifications")
    general = models.ForeignKey(General, on_delete=models.PROTECT, related_name="disqualifications")
    season = models.ForeignKey(Season, null=True, blank=True, on_delete=models.PROTECT, related_name="+",
                               help_text="A league's season it was decided in: it marks that season and later ones, "
                                         "never an earlier one.")
    reason = models.CharField(max_length=10, choices=Reason.choices)
    details = models.TextField(blank=True, default="")
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    decided_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["event", "general"], name="disqualified_once")]

    def __str__(self):
        return f"{self.general} disqualified from {self.event}"


class AuditEntry(models.Model):
    """Who changed what, when, what it was before and why. Written by the services only."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="audit_entries")
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                              related_name="+")
    at = models.DateTimeField(auto_now_add=True)
    action = models.CharField(max_length=40)
    subject = models.CharField(max_length=120, help_text="e.g. 'battle 12' or 'registration of Alice'")
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    reason = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name_plural = "audit entries"

    def __str__(self):
        return f"{self.action} {self.subject}"


class Report(models.Model):
    """A result as a general (or an organizer) reported it. Standings count a battle's result only
    once a report is confirmed: by the opponent, by a verdict that agrees, or by an organizer."""

    class Status(models.TextChoices):
        AWAITING_OPPONENT = "awaiting_opponent", _("Waiting for the opponent's confirmation")
        CHECKED = "checked", _("Checked by the engine, waiting for the opponent's confirmation")
        QUEUED = "queued", _("Queued for adjudication")
        ADJUDICATING = "adjudicating", _("Being adjudicated")
        CONFIRMED = "confirmed", _("Confirmed")
        DISPUTED = "disputed", _("Disputed: an organizer decides")
        FAILED = "failed", _("Adjudication failed: an organizer decides")
        OVERRIDDEN = "overridden", _("Overridden by an organizer")
        SUPERSEDED = "superseded", _("Replaced by a newer report")

    OPEN_STATUSES = (Status.AWAITING_OPPONENT, Status.CHECKED, Status.QUEUED, Status.ADJUDICATING,
                     Status.DISPUTED, Status.FAILED)
    # Waiting for the opponent: they confirm or dispute, or the window passes and it counts.
    AWAITING_STATUSES = (Status.AWAITING_OPPONENT, Status.CHECKED)
    # Its replay is with the engine: waiting for a job, or in one.
    BEING_ADJUDICATED_STATUSES = (Status.QUEUED, Status.ADJUDICATING)

    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="reports")
    reported_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                                    related_name="+")
    kind = models.CharField(max_length=12, choices=Battle.Kind.choices)
    winner = models.ForeignKey(General, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    condition = models.CharField(max_length=20, choices=Battle.Condition.choices, blank=True, default="")
    forfeited_by = models.ForeignKey(General, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    player_1 = models.ForeignKey(General, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    facts = models.JSONField(default=dict, blank=True, help_text="The raw facts reported with the result.")
    replay = models.TextField(blank=True, default="", help_text="The replay log exactly as uploaded.")
    replay_sha256 = models.CharField(max_length=64, blank=True, default="",
                                     help_text="The uploaded replay's SHA-256, kept when its text is dropped (R94).")
    replay_bytes = models.PositiveIntegerField(null=True, blank=True,
                                               help_text="The uploaded replay's size in bytes (R94).")
    status = models.CharField(max_length=20, choices=Status.choices)
    status_reason = models.TextField(blank=True, default="")
    dispute_turn = models.IntegerField(null=True, blank=True, help_text="The turn the engine's objection names.")
    answered_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                    related_name="+", help_text="Who confirmed, disputed or overrode it.")
    confirm_by = models.DateTimeField(null=True, blank=True, db_index=True,
                                      help_text="When the report counts by itself unless the opponent disputes it.")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return f"Report on {self.battle}"

    @property
    def is_open(self):
        return self.status in self.OPEN_STATUSES

    @property
    def is_awaiting_opponent(self):
        return self.status in self.AWAITING_STATUSES

    def claim(self):
        """The claimed result, comparable between two reports."""
        return (self.kind, self.winner_id, self.condition or "", self.forfeited_by_id)


class Invitation(models.Model):
    """An organizer asks a player to enter an event; the player's general enters only when they accept."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for the player")
        ACCEPTED = "accepted", _("Accepted")
        DECLINED = "declined", _("Declined")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="invitations")
    general = models.ForeignKey(General, on_delete=models.CASCADE, related_name="invitations")
    invited_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [models.UniqueConstraint(fields=["event", "general"], condition=models.Q(status="pending"),
                                               name="invitation_pending_once")]

    def __str__(self):
        return f"{self.general} invited to {self.event}"


class OrganizerInvitation(models.Model):
    """An organizer asks an account to co-organize an event; it organizes only once it accepts. The
    accepted invitation records who appointed it (`invited_by`, R95)."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for the answer")
        ACCEPTED = "accepted", _("Accepted")
        DECLINED = "declined", _("Declined")
        WITHDRAWN = "withdrawn", _("Withdrawn")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="organizer_invitations")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="organizer_invitations")
    invited_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [models.UniqueConstraint(fields=["event", "user"], condition=models.Q(status="pending"),
                                               name="organizer_invitation_pending_once")]

    def __str__(self):
        return f"{self.user} invited to organize {self.event}"


class Adjudication(models.Model):
    """One run of the rules engine over a report's replay, with its verdict and timings."""

    class State(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    report = models.OneToOneField(Report, on_delete=models.CASCADE, related_name="adjudication")
    state = models.CharField(max_length=10, choices=State.choices, default=State.QUEUED)
    engine_version = models.CharField(max_length=40, blank=True, default="")
    verdict = models.JSONField(null=True, blank=True)
    agrees = models.BooleanField(null=True, blank=True, help_text="Whether the verdict agrees with the report.")
    disagreement = models.TextField(blank=True, default="")
    previous_verdict = models.JSONField(null=True, blank=True, help_text="Before the latest re-adjudication.")
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.TextField(blank=True, default="")
    queued_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True,
                                   help_text="When the job was last handed to the job queue; empty: still to send.")
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    engine_ms = models.FloatField(null=True, blank=True, help_text="Time spent in the engine.")

    def __str__(self):
        return f"Adjudication of {self.report}"


class NotificationSettings(models.Model):
    """Which emails a user wants (tournaments.notifications); every kind is on until they opt out."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="notification_settings")
    confirmations = models.BooleanField(default=True, help_text="An opponent's report waits for my confirmation.")
    disputes = models.BooleanField(default=True, help_text="A report of my battle (or of my event) is disputed.")
    verdicts = models.BooleanField(default=True, help_text="The rules engine's verdict on a report of my battle.")
    pairings = models.BooleanField(default=True, help_text="My battles of a new round, stage or season.")
    decisions = models.BooleanField(default=True, help_text="A report of an event I organize waits for an "
                                                            "organizer's decision (nobody can answer it).")

    language = models.CharField(max_length=12, blank=True, default="",
                                help_text="The language of my mails and pages (a code of LANGUAGES); empty: the "
                                          "site's default.")
    calendar_token = models.CharField(
        max_length=64, blank=True, default="", db_index=True,
        help_text="The secret in the address of my own calendar feed; empty: no feed yet. A new one ends the old.")

    KINDS = ("confirmations", "disputes", "verdicts", "pairings", "decisions")

    class Meta:
        verbose_name_plural = "notification settings"

    def __str__(self):
        return f"Notifications of {self.user}"

    def wants(self, kind):
        return bool(getattr(self, kind))


class Notification(models.Model):
    """One email sent (or tried) to one user; `key` names what it was about, so one thing is never
    mailed twice to the same user."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications")
    kind = models.CharField(max_length=16)
    key = models.CharField(max_length=80)
    subject = models.CharField(max_length=200)
    body = models.TextField(blank=True, default="", help_text="The mail's text as queued (footer included).")
    sent = models.BooleanField(default=False, help_text="False: waiting to be sent, or given up (see error).")
    error = models.CharField(max_length=300, blank=True, default="")
    attempts = models.PositiveSmallIntegerField(default=0, help_text="Tries to hand it to the mail server.")
    next_attempt_at = models.DateTimeField(
        null=True, blank=True, db_index=True,
        help_text="When it is (next) to be sent; empty once sent or given up.")
    sent_at = models.DateTimeField(null=True, blank=True)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-at", "-id"]
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="notification_once_per_user")]

    def __str__(self):
        return f"{self.kind} to {self.user}: {self.subject}"


class IdempotentRequest(models.Model):
    """An API request sent with an `Idempotency-Key` header (tournaments/api/idempotency.py): the first
    one's answer, given again to every repeat of the key by the same user on the same endpoint for a
    day, so that a double-submit creates one thing. `status_code` is empty while the first is answered."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=255)
    endpoint = models.CharField(max_length=300, help_text="The method and path, e.g. POST /api/v1/generals/.")
    fingerprint = models.CharField(max_length=64, help_text="SHA-256 of the request's data.")
    status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    body = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "key", "endpoint"], name="idempotency_key_once")]

    def __str__(self):
        return f"{self.endpoint} ({self.key})"


class RatingPoint(models.Model):
    """A general's Glicko-2 rating after one rating period in which they played (R98). Never edited:
    `tournaments.ratings` rewrites the whole table from the counted battles, so it always follows
    from the record."""

    general = models.ForeignKey(General, on_delete=models.CASCADE, related_name="rating_points")
    period = models.DateField(help_text="First day (Monday) of the rating period, an ISO week.")
    rating = models.FloatField()
    deviation = models.FloatField()
    volatility = models.FloatField()
    battles = models.PositiveIntegerField(help_text="Rated battles of the period.")
    score = models.FloatField(help_text="Points scored in the period: 1 a Victory, 0.5 a Stalemate or Resolve.")

    class Meta:
        ordering = ["general", "period"]
        constraints = [models.UniqueConstraint(fields=["general", "period"], name="rating_point_once_per_period")]

    def __str__(self):
        return f"{self.general}: {self.rating:.0f} ({self.period})"


class SiteAccess(models.Model):
    """Who may open an account, as the site's staff set it in the admin. One row; without it the
    `OPP_SIGNUP` setting decides."""

    class Signup(models.TextChoices):
        OPEN = "open", _("Anyone may sign up")
        INVITE = "invite", _("Only with an invitation code")
        CLOSED = "closed", _("Closed: staff create accounts")

    signup = models.CharField(max_length=10, choices=Signup.choices, default=Signup.OPEN)
    changed_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = verbose_name_plural = "site access"

    def __str__(self):
        return self.get_signup_display()


class SignupInvitation(models.Model):
    """A one-use code with which someone may sign up while sign-up is invite-only."""

    code = models.CharField(max_length=40, unique=True, default=new_signup_code, editable=False)
    note = models.CharField(max_length=120, blank=True, default="", help_text="For whom, e.g. a club's name.")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    used_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                related_name="+")
    used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return f"{self.code} ({'used' if self.used_at else 'open'})"


class WebhookEndpoint(models.Model):
    """An HTTPS address that hears of an event's happenings (tournaments.webhooks): registered by an
    organizer for one event, or by site staff for every event (`event` empty)."""

    class Kind(models.TextChoices):
        PAIRINGS_PUBLISHED = "pairings.published", _("Pairings published")
        REPORT_WAITING = "report.waiting", _("A report waits for confirmation")
        RESULT_COUNTED = "result.counted", _("A result counted")
        STANDINGS_CHANGED = "standings.changed", _("Standings changed")
        EVENT_FINISHED = "event.finished", _("Event finished")

    event = models.ForeignKey(Event, null=True, blank=True, on_delete=models.CASCADE, related_name="webhooks",
                              help_text="Empty: every event of the site (site staff only).")
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="webhook_endpoints")
    url = models.URLField(max_length=500)
    secret = models.CharField(max_length=80, help_text="Signs every delivery (HMAC-SHA256); shown to the owner.")
    kinds = models.JSONField(default=list, help_text="The kinds of happening it wants (values of Kind).")
    active = models.BooleanField(default=True)
    consecutive_failures = models.PositiveIntegerField(default=0)
    disabled_at = models.DateTimeField(null=True, blank=True)
    disabled_reason = models.CharField(max_length=300, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]

    def __str__(self):
        return self.url


class WebhookDelivery(models.Model):
    """One happening sent (or to be sent) to one endpoint: the signed body exactly as sent, every try
    counted, the last answer kept."""

    class State(models.TextChoices):
        PENDING = "pending", _("Waiting to be sent")
        DELIVERED = "delivered", _("Delivered")
        FAILED = "failed", _("Given up")

    endpoint = models.ForeignKey(WebhookEndpoint, on_delete=models.CASCADE, related_name="deliveries")
    delivery_id = models.UUIDField(unique=True)
    key = models.CharField(max_length=120, help_text="What it reports, so one happening is queued once.")
    kind = models.CharField(max_length=40)
    body = models.TextField(help_text="The JSON body exactly as signed and sent.")
    state = models.CharField(max_length=12, choices=State.choices, default=State.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    next_attempt_at = models.DateTimeField(null=True, blank=True, db_index=True)
    response_code = models.PositiveSmallIntegerField(null=True, blank=True)
    response_excerpt = models.CharField(max_length=300, blank=True, default="")
    error = models.CharField(max_length=300, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    delivered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "webhook deliveries"
        constraints = [models.UniqueConstraint(fields=["endpoint", "key"], name="webhook_delivery_once")]

    def __str__(self):
        return f"{self.kind} to {self.endpoint}"
