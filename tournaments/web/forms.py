"""Forms of the organizer and player pages. They check the shape of what was typed; the rules are
checked by the services, whose refusals are shown on the field they concern."""
from django import forms
from django.contrib import messages
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

import game_systems
from tournaments.domain import DomainError
from tournaments.events import embedding
from tournaments.models import VARIANT_CHOICES, Battle, Disqualification, Event
from tournaments.timezones import default_time_zone, validate_time_zone, zone_names


class TimeZoneInput(forms.TextInput):
    """A text box suggesting the known IANA zones as one types (a datalist)."""

    def __init__(self, attrs=None):
        super().__init__({"list": "time-zone-names", "autocomplete": "off", "spellcheck": "false", **(attrs or {})})

    def render(self, name, value, attrs=None, renderer=None):
        from django.utils.html import format_html, format_html_join

        options = format_html_join("", '<option value="{}">', ((zone,) for zone in zone_names()))
        return format_html('{}<datalist id="time-zone-names">{}</datalist>',
                           super().render(name, value, attrs, renderer), options)


def show_refusal(form, error):
    """Puts a service's refusal on the field it names (or on the whole form)."""
    field = getattr(error, "field", None)
    form.add_error(field if field in form.fields else None, str(error))


def show_disqualification_offer(request, general):
    """R68: a general's forfeits reached the event's limit; disqualification is offered, not applied."""
    if general is not None:
        messages.warning(request, _("%(general)s has reached the forfeit limit (R68): you may disqualify "
                                    "them on the event's organizer page.") % {"general": general.name})


class EventForm(forms.Form):
    name = forms.CharField(max_length=160)
    slug = forms.SlugField(max_length=80, label=gettext_lazy("Address"), help_text=gettext_lazy(
            "The event page will be /events/<address>/."))
    kind = forms.ChoiceField(choices=Event.Kind.choices)
    game = forms.ChoiceField(choices=game_systems.choices, initial=game_systems.DEFAULT_GAME, required=False,
                             help_text=gettext_lazy("Fixed once the event is created."))
    format = forms.ChoiceField(choices=[("", gettext_lazy("The game's usual format"))] + Event.Format.choices, required=False,
                               help_text=gettext_lazy("WARLINE: Organized Play groups (official), or Swiss "
                                                      "rounds (unofficial). Warlord CCG and Reaper's "
                                                      "Warlord: Swiss rounds."))
    swiss_rounds = forms.IntegerField(required=False, min_value=1, max_value=20, label=gettext_lazy(
            "Swiss rounds"),
                                      help_text=gettext_lazy("Empty: suggested from the field (ceil(log2 "
                                                             "of the players))."))
    top_cut = forms.TypedChoiceField(choices=[(0, gettext_lazy("No top cut")), (4, "Top 4"), (8, "Top 8"), (16, "Top 16")],
                                     coerce=int, initial=0, required=False, label=gettext_lazy("Top cut"),
                                     help_text=gettext_lazy("Single elimination of the best players after "
                                                            "the Swiss rounds."))
    table_size = forms.TypedChoiceField(choices=[(2, "2 (matches)"), (3, "3"), (4, "4")], coerce=int, initial=2,
                                        required=False, label=gettext_lazy("Players per table"),
                                        help_text=gettext_lazy("Warlord CCG may seat 3 or 4 players at a "
                                                               "table."))
    placement_points = forms.CharField(required=False, label=gettext_lazy("Points by place at a table"),
                                       help_text=gettext_lazy("Multiplayer tables: e.g. “4, 2, 1, 0” "
                                                              "(first place first)."))
    scoring = forms.CharField(required=False, label=gettext_lazy("Swiss points"),
                              help_text=gettext_lazy("Win, draw, loss, bye: e.g. “3, 1, 0, 3” (the "
                                                     "default)."))
    tie_breakers = forms.CharField(required=False, label=gettext_lazy("Tie-breakers"),
                                   help_text=gettext_lazy("In order, from those the game allows: sos "
                                                          "(strength of schedule), omw (opponents' win "
                                                          "rate), h2h (head to head), points_destroyed "
                                                          "(Reaper's Warlord). Empty: the game's default."))
    variants = forms.MultipleChoiceField(choices=VARIANT_CHOICES, required=False,
                                         widget=forms.CheckboxSelectMultiple,
                                         label=gettext_lazy("Rules Variants and Modules"),
                                         help_text=gettext_lazy("Fixed for every battle once the event "
                                                                "starts."))
    battalion_count = forms.IntegerField(required=False, min_value=6, max_value=16,
                                         help_text=gettext_lazy("Battalions per army, with Army Recruiting "
                                                                "only."))
    board_width = forms.IntegerField(required=False, initial=7, min_value=1, max_value=26, label=gettext_lazy("Board width"),
                                     help_text=gettext_lazy("Columns of the battlefield (7 by default); a "
                                                            "reported replay on another board is refused."))
    board_height = forms.IntegerField(required=False, initial=7, min_value=1, max_value=26, label=gettext_lazy("Board height"),
                                      help_text=gettext_lazy("Rows of the battlefield (7 by default)."))
    forfeit_award_opp = forms.IntegerField(initial=1, min_value=0, max_value=5, label=gettext_lazy(
            "OPP for a forfeit"),
                                           help_text=gettext_lazy("R22: the opponent of a forfeit gets 1 "
                                                                  "OPP by default."))
    forfeit_counts_as_victory = forms.BooleanField(initial=True, required=False,
                                                   label=gettext_lazy("A forfeit counts as a Victory for "
                                                                      "tie-breakers"))
    forfeits_to_disqualify = forms.IntegerField(initial=2, required=False, min_value=1, max_value=99,
                                                help_text=gettext_lazy(
                                                        "Forfeits after which disqualification is offered."))
    rated = forms.BooleanField(required=False, label=gettext_lazy("Rated event"),
                               help_text=gettext_lazy("Its Victories, Stalemates and Resolves (playoffs "
                                                      "too, never forfeits) enter the players' Glicko-2 "
                                                      "ratings (R98). Chosen before the event starts."))
    confirmation_minutes = forms.IntegerField(
        required=False, min_value=1, max_value=60 * 24 * 30, label=gettext_lazy(
                "Confirmation window (minutes)"),
        help_text=gettext_lazy("How long a general has to confirm or dispute the opponent's report before "
                               "it counts by itself. Empty: 30 minutes for a tournament, 3 days (4320) for "
                               "a league."))
    pair_battles_per_season = forms.IntegerField(
        initial=1, required=False, min_value=1, max_value=99, label=gettext_lazy(
                "Battles per pair in a season (leagues)"),
        help_text=gettext_lazy("R111: how many counted battles two members may have in one season; fixed "
                               "when the first season opens."))
    venue = forms.CharField(max_length=160, required=False)
    starts_on = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))
    ends_on = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}),
                              help_text=gettext_lazy("Empty for a one-day event."))
    time_zone = forms.CharField(max_length=64, required=False, validators=[validate_time_zone],
                                widget=TimeZoneInput, initial=default_time_zone,
                                help_text=gettext_lazy("Every time of the event (deadlines, reports) is "
                                                       "shown in it: an IANA name such as Europe/Berlin or "
                                                       "America/New_York. Empty: the site's zone."))
    description = forms.CharField(max_length=1000, required=False, widget=forms.Textarea(attrs={"rows": 3}),
                                  help_text=gettext_lazy("A few lines for the list of events."))

    def clean_pair_battles_per_season(self):
        return self.cleaned_data.get("pair_battles_per_season") or 1

    def _numbers(self, name, count=None):
        text = self.cleaned_data.get(name) or ""
        if not text.strip():
            return [] if count is None else {}
        try:
            numbers = [float(part) for part in text.replace(";", ",").split(",") if part.strip()]
        except ValueError:
            raise forms.ValidationError(_("Numbers separated by commas, e.g. 3, 1, 0, 3.")) from None
        numbers = [int(n) if n.is_integer() else n for n in numbers]
        if count is not None:
            if len(numbers) != count:
                raise forms.ValidationError(_("Four numbers: win, draw, loss, bye."))
            return dict(zip(("win", "draw", "loss", "bye"), numbers, strict=True))
        return numbers

    def clean_placement_points(self):
        return self._numbers("placement_points")

    def clean_scoring(self):
        return self._numbers("scoring", 4)

    def clean_tie_breakers(self):
        text = self.cleaned_data.get("tie_breakers") or ""
        return [part.strip() for part in text.replace(";", ",").split(",") if part.strip()]

    def clean_game(self):
        return self.cleaned_data.get("game") or game_systems.DEFAULT_GAME

    def clean_top_cut(self):
        return self.cleaned_data.get("top_cut") or 0

    def clean_table_size(self):
        return self.cleaned_data.get("table_size") or 2

    def clean(self):
        return check_dates(self, super().clean())


class EventDetailsForm(forms.Form):
    """What an organizer may change at any time: how the event is presented, its days and time zone."""

    name = EventForm.base_fields["name"]
    description = EventForm.base_fields["description"]
    venue = EventForm.base_fields["venue"]
    starts_on = EventForm.base_fields["starts_on"]
    ends_on = EventForm.base_fields["ends_on"]
    time_zone = EventForm.base_fields["time_zone"]
    approve_registrations = forms.BooleanField(
        required=False, label=gettext_lazy("Approve each registration"),
        help_text=gettext_lazy("A player who registers themselves waits in your queue until you approve or "
                               "refuse them (with a sentence they read). Those you invite or register are "
                               "approved already."))
    rated = EventForm.base_fields["rated"]
    embed_origins = forms.CharField(
        required=False, widget=forms.Textarea(attrs={"rows": 3, "spellcheck": "false"}),
        label=gettext_lazy("Sites that may show the standings widget"),
        help_text=gettext_lazy("One site a line, e.g. https://club.example; * for any site; empty: this site "
                               "only. The code to paste into those sites is below."))

    def clean_embed_origins(self):
        try:  # the API's check too (tournaments/events/embedding.py), with its sentence naming the line
            return embedding.clean_origins(self.cleaned_data["embed_origins"])
        except DomainError as error:
            raise forms.ValidationError(str(error)) from None

    def __init__(self, *args, started=False, **kwargs):
        super().__init__(*args, **kwargs)
        if started:  # R98: fixed once the event starts, like its rules
            self.fields["rated"].disabled = True
            self.fields["rated"].help_text = _("Fixed: the event has started (R98).")

    def clean(self):
        return check_dates(self, super().clean())


def check_dates(form, data):
    if "time_zone" in data and not data["time_zone"]:
        data["time_zone"] = default_time_zone()
    if data.get("starts_on") and data.get("ends_on") and data["ends_on"] < data["starts_on"]:
        form.add_error("ends_on", _("The last day cannot be before the first."))
    if data.get("ends_on") and not data.get("starts_on"):
        form.add_error("starts_on", _("Give the first day too."))
    return data


class RegisterForm(forms.Form):
    name = forms.CharField(max_length=120, label="General",
                           help_text=gettext_lazy("A general without a player account (players register "
                                                  "themselves, or accept your invitation). Names are "
                                                  "compared ignoring case and spaces."))
    seed = forms.IntegerField(required=False, min_value=1, label=gettext_lazy("Seeding rank"),
                              help_text=gettext_lazy("1 is the strongest (for groups formed by seeding)."))

    def __init__(self, *args, league=False, **kwargs):
        super().__init__(*args, **kwargs)
        if league:  # a league has no groups to seed
            del self.fields["seed"]


class ClaimForm(forms.Form):
    code = forms.CharField(max_length=60, label=gettext_lazy("Claim code"), help_text=gettext_lazy(
            "The one-use code the organizer gave you."))


class OrganizerForm(forms.Form):
    username = forms.CharField(max_length=150, label="Co-organizer's username")


class FormGroupsForm(forms.Form):
    group_count = forms.TypedChoiceField(coerce=int, label=gettext_lazy("Qualifying groups"))
    method = forms.ChoiceField(choices=[("random", gettext_lazy("Random draw (seed shown to everyone)")),
                                        ("seeded", gettext_lazy("By seeding, snake order")),
                                        ("rating", gettext_lazy("By rating, snake order (unrated generals "
                                                                "seeded last)"))],
                               initial="random")
    seed = forms.IntegerField(required=False, min_value=0, max_value=2**62, label=gettext_lazy(
            "Random draw seed"),
                              help_text=gettext_lazy("The number the random draw starts from, shown to "
                                                     "everyone so anyone can repeat the draw. Leave empty "
                                                     "for a fresh one."))

    def __init__(self, *args, partitions=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["group_count"].choices = [(count, (_("%(count)s groups of %(size)s")
                                                       % {"count": count, "size": size})) for count, size in partitions]


class DisqualifyForm(forms.Form):
    general = forms.TypedChoiceField(coerce=int)
    reason = forms.ChoiceField(choices=Disqualification.Reason.choices)
    details = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}))
    confirm = forms.BooleanField(label=gettext_lazy("Yes, disqualify: it cannot be undone, and every "
                                                    "battle still scheduled is not fought (R23)."),
                                 error_messages={"required": gettext_lazy(
                                         "Tick the box to confirm the disqualification.")})

    def __init__(self, *args, generals=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["general"].choices = [(g.pk, g.name) for g in generals]


class BattleGenerals:
    """What both result forms (WARLINE's and the other games') do with the battle's two generals."""

    def require_who(self, data, kind):
        """A victory names who won, a forfeit who forfeited."""
        if kind == "victory" and not data.get("winner") and "winner" not in self.errors:
            self.add_error("winner", _("Who won?"))
        if kind == "forfeit" and not data.get("forfeited_by") and "forfeited_by" not in self.errors:
            self.add_error("forfeited_by", _("Who forfeited?"))

    def general(self, name):
        pk = self.cleaned_data.get(name)
        return next((g for g in self.battle.generals() if g.pk == pk), None)


class OutcomeFields(BattleGenerals, forms.Form):
    """The result of one battle, with the two generals as the only choices. Each field belongs to
    some result kinds (`USES`): static/js/result-form.js shows only those of the chosen kind, and
    `clean` refuses, with a sentence, a field filled in for a kind it does not belong to (a
    Stalemate with a winner), so the page says the same without JavaScript."""

    KINDS = [("victory", "Victory"), ("stalemate", "Stalemate"), ("resolve", "Resolve"), ("forfeit", "Forfeit")]
    PLAYED = ("victory", "surrender", "stalemate", "resolve")
    USES = {"winner": ("victory",), "condition": ("victory",), "forfeited_by": ("forfeit",)}

    kind = forms.ChoiceField(choices=KINDS)
    winner = forms.TypedChoiceField(coerce=int, required=False, empty_value=None)
    condition = forms.ChoiceField(choices=[("", "—")] + Battle.Condition.choices, required=False)
    forfeited_by = forms.TypedChoiceField(coerce=int, required=False, empty_value=None, label=gettext_lazy("Forfeited by"))

    def __init__(self, *args, battle, **kwargs):
        super().__init__(*args, **kwargs)
        self.battle = battle
        choices = [("", "—"), (battle.general_a_id, battle.general_a.name),
                   (battle.general_b_id, battle.general_b.name)]
        for name in ("winner", "forfeited_by", "player_1", "surrendered_by"):
            if name in self.fields:
                self.fields[name].choices = choices
        self.fields["kind"].choices = self.KINDS
        self.fields["kind"].widget.attrs["data-result-kind"] = ""
        for name, kinds in self.USES.items():
            if name in self.fields:
                self.fields[name].widget.attrs["data-kinds"] = " ".join(kinds)

    def clean(self):
        data = super().clean()
        kind = data.get("kind")
        if not kind:
            return data
        label = dict(self.KINDS)[kind]
        for name, kinds in self.USES.items():
            if kind not in kinds and data.get(name) not in (None, "") and name in self.fields:
                self.add_error(name, stray_field_sentence(name, kind, label, self.fields[name].label or name))
        self.require_who(data, kind)
        if kind == "victory" and not data.get("condition") and "condition" not in self.errors:
            self.add_error("condition", _("By which victory condition?"))
        return data

    def outcome(self):
        return {"kind": self.cleaned_data["kind"], "winner": self.general("winner"),
                "condition": self.cleaned_data.get("condition") or "",
                "forfeited_by": self.general("forfeited_by")}


def stray_field_sentence(name, kind, label, field_label):
    """Why a field filled in for a result kind it does not belong to is refused."""
    field_label = str(field_label).rstrip("?")
    if name in ("winner", "won"):
        if kind == "forfeit":
            return _("A forfeit's winner is the other general: set “%(field_label)s” to “—” and say who "
                     "forfeited.") % {"field_label": field_label}
        if kind == "surrender":
            return _("A surrender's winner is the other general: set “%(field_label)s” to “—” and say who "
                     "surrendered.") % {"field_label": field_label}
        return (_("A %(label)s has no winner: set “%(field_label)s” to “—”, or choose Victory.")
                % {"label": label, "field_label": field_label})
    if name == "condition":
        return (_("Only a victory has a victory condition: set “%(field_label)s” to “—” for a %(label)s.")
                % {"field_label": field_label, "label": label})
    if name in ("surrendered_by", "surrender"):
        return _("Only a surrender says who surrendered and how: set “%(field_label)s” to “—” for a "
                 "%(label)s.") % {"field_label": field_label, "label": label}
    if name in ("forfeited_by", "forfeited"):
        return (_("Only a forfeit says who forfeited: set “%(field_label)s” to “—” for a %(label)s.")
                % {"field_label": field_label, "label": label})
    if name == "player_1":
        return (_("A forfeited battle was not fought, so it has no Player-1: set “%(field_label)s” to “—”.")
                % {"field_label": field_label})
    return (_("“%(field_label)s” does not apply to a %(label)s: leave it empty.")
            % {"field_label": field_label, "label": label})


class ReportForm(OutcomeFields):
    USES = {**OutcomeFields.USES, "player_1": OutcomeFields.PLAYED, "replay_file": OutcomeFields.PLAYED,
            "replay_text": OutcomeFields.PLAYED}

    player_1 = forms.TypedChoiceField(coerce=int, required=False, empty_value=None, label="Player-1",
                                      help_text=gettext_lazy("Who was Player-1 at the table (decided by "
                                                             "the Challenge)."))
    replay_file = forms.FileField(required=False, label=gettext_lazy("Replay log (file)"),
                                  help_text=gettext_lazy("A WARLINE replay log (JSON), at most 1 MiB; the "
                                                         "rules engine checks it."))
    replay_text = forms.CharField(required=False, label=gettext_lazy("…or paste the replay log"),
                                  widget=forms.Textarea(attrs={"rows": 4, "spellcheck": "false"}))

    def replay(self):
        upload = self.cleaned_data.get("replay_file")
        return upload.read() if upload else self.cleaned_data.get("replay_text", "")


class ResultForm(OutcomeFields):
    """The organizer's one result form, on the round page and the battle page: record a first
    result, decide a report (as reported, or otherwise with a reason), correct a counted result.
    A surrender is a victory of the other general by Voluntary or Forced Surrender."""

    KINDS = [("victory", "Victory"), ("surrender", "Surrender"), ("stalemate", "Stalemate"),
             ("resolve", "Resolve"), ("forfeit", "Forfeit")]
    SURRENDERS = [(Battle.Condition.VOLUNTARY_SURRENDER, "Voluntary (conceded)"),
                  (Battle.Condition.FORCED_SURRENDER, gettext_lazy("Forced (two Stalls in a row)"))]
    USES = {"winner": ("victory",), "condition": ("victory",), "surrendered_by": ("surrender",),
            "surrender": ("surrender",), "forfeited_by": ("forfeit",), "player_1": OutcomeFields.PLAYED}

    kind = forms.ChoiceField(choices=KINDS, label="Result")
    condition = forms.ChoiceField(
        choices=[("", "—")] + [c for c in Battle.Condition.choices if not c[0].endswith("_surrender")],
        required=False, label=gettext_lazy("Victory condition"))
    surrendered_by = forms.TypedChoiceField(coerce=int, required=False, empty_value=None, label=gettext_lazy("Who surrendered"))
    surrender = forms.ChoiceField(choices=[("", "—")] + SURRENDERS, required=False, label="How")
    forfeited_by = forms.TypedChoiceField(coerce=int, required=False, empty_value=None, label=gettext_lazy("Who forfeited"))
    player_1 = forms.TypedChoiceField(coerce=int, required=False, empty_value=None, label="Player-1",
                                      help_text=gettext_lazy("Optional: who was Player-1 at the table "
                                                             "(decided by the Challenge)."))
    reason = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}), label="Reason",
                             help_text=gettext_lazy("Kept in the audit trail. Needed to correct a counted "
                                                    "result or to decide otherwise than a report; not to "
                                                    "accept a report as reported."))

    def clean(self):
        data = super().clean()
        if data.get("kind") == "surrender":
            if not data.get("surrendered_by") and "surrendered_by" not in self.errors:
                self.add_error("surrendered_by", _("Who surrendered?"))
            if not data.get("surrender") and "surrender" not in self.errors:
                self.add_error("surrender", _("Voluntary or forced?"))
        return data

    def outcome(self):
        """The result for the services: a surrender is a victory of the other general."""
        data = self.cleaned_data
        if data["kind"] == "surrender":
            result = {"kind": "victory", "winner": self.battle.opponent_of(self.general("surrendered_by")),
                      "condition": data["surrender"], "forfeited_by": None}
        else:
            result = super().outcome()
        if self.general("player_1") is not None:  # else a report's own Player-1 is kept
            result["player_1"] = self.general("player_1")
        return result


class DisputeForm(forms.Form):
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), label=gettext_lazy("What is wrong?"))


class SeasonForm(forms.Form):
    name = forms.CharField(max_length=120, label=gettext_lazy("Season name"), help_text="e.g. Winter 2026")


class LeagueBattleForm(forms.Form):
    general_a = forms.TypedChoiceField(coerce=int, label="General")
    general_b = forms.TypedChoiceField(coerce=int, label="Opponent")

    def __init__(self, *args, members=(), **kwargs):
        super().__init__(*args, **kwargs)
        for name in ("general_a", "general_b"):
            self.fields[name].choices = [(g.pk, g.name) for g in members]
        if len(members) > 1:  # never a general against himself by default
            self.fields["general_b"].initial = members[1].pk


class CloseSeasonForm(forms.Form):
    confirm = forms.BooleanField(label=gettext_lazy("Yes, close the season: no new battles; it ends once "
                                                    "the scheduled ones are decided (and any playoff)"))

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", "id_close_%s")  # the dashboard's disqualification form has a "confirm" too
        super().__init__(*args, **kwargs)


class ReopenSeasonForm(forms.Form):
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), label=gettext_lazy("Why reopen?"),
                             help_text=gettext_lazy("Kept in the audit trail."))

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", "id_reopen_%s")  # the disqualification form has a "reason" too
        super().__init__(*args, **kwargs)


class ArrangedBattleForm(forms.Form):
    """A league member reports a battle they arranged with another member."""

    SIDES = [("", "—"), ("me", "Me"), ("opponent", gettext_lazy("My opponent"))]

    opponent = forms.TypedChoiceField(coerce=int)
    kind = forms.ChoiceField(choices=[("victory", "Victory"), ("stalemate", "Stalemate"), ("resolve", "Resolve"),
                                      ("forfeit", "Forfeit")])
    won = forms.ChoiceField(choices=[("me", "I won"), ("opponent", gettext_lazy("My opponent won"))], required=False,
                            label=gettext_lazy("Who won"))
    condition = forms.ChoiceField(choices=[("", "—")] + Battle.Condition.choices, required=False)
    forfeited = forms.ChoiceField(choices=SIDES, required=False, label=gettext_lazy("Who forfeited"))
    player_1 = forms.ChoiceField(choices=SIDES, required=False, label="Player-1",
                                 help_text=gettext_lazy("Who was Player-1 at the table (decided by the "
                                                        "Challenge)."))
    replay_file = forms.FileField(required=False, label=gettext_lazy("Replay log (file)"))
    replay_text = forms.CharField(required=False, label=gettext_lazy("…or paste the replay log"),
                                  widget=forms.Textarea(attrs={"rows": 4, "spellcheck": "false"}))

    def __init__(self, *args, opponents=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["opponent"].choices = [(g.pk, g.name) for g in opponents]
        # static/js/result-form.js shows only the fields of the chosen kind.
        self.fields["kind"].widget.attrs["data-result-kind"] = ""
        for name, kinds in {"won": ("victory",), "condition": ("victory",), "forfeited": ("forfeit",),
                            "player_1": OutcomeFields.PLAYED, "replay_file": OutcomeFields.PLAYED,
                            "replay_text": OutcomeFields.PLAYED}.items():
            self.fields[name].widget.attrs["data-kinds"] = " ".join(kinds)

    def clean(self):
        data = super().clean()
        if data.get("kind") == "victory":
            if not data.get("won"):
                self.add_error("won", _("Who won?"))
            if not data.get("condition"):
                self.add_error("condition", _("By which victory condition?"))
        if data.get("kind") == "forfeit" and not data.get("forfeited"):
            self.add_error("forfeited", _("Who forfeited?"))
        return data

    def replay(self):
        upload = self.cleaned_data.get("replay_file")
        return upload.read() if upload else self.cleaned_data.get("replay_text", "")


class GameOutcomeFields(BattleGenerals, forms.Form):
    """The result of a game without an engine (game_systems: Warlord CCG, Reaper's Warlord): its kind
    from the game's result kinds, who won or forfeited, and the raw facts the game records, each fact
    per side shown with the two generals' names."""

    USES = {"winner": ("victory",), "forfeited_by": ("forfeit",)}

    kind = forms.ChoiceField(label="Result")
    winner = forms.TypedChoiceField(coerce=int, required=False, empty_value=None, label=gettext_lazy(
            "Who won"))
    forfeited_by = forms.TypedChoiceField(coerce=int, required=False, empty_value=None, label=gettext_lazy("Who forfeited"))

    def __init__(self, *args, battle, **kwargs):
        super().__init__(*args, **kwargs)
        self.battle = battle
        self.system = battle.event.game_system
        self.kinds = [(kind.key, kind.label) for kind in self.system.result_kinds]
        if battle.swiss_round_id and battle.swiss_round.stage == "top_cut":
            self.kinds = [(kind.key, kind.label) for kind in self.system.result_kinds if kind.has_winner]
        self.fields["kind"].choices = self.kinds
        self.fields["kind"].widget.attrs["data-result-kind"] = ""
        choices = [("", "—"), (battle.general_a_id, battle.general_a.name),
                   (battle.general_b_id, battle.general_b.name)]
        for name in ("winner", "forfeited_by"):
            self.fields[name].choices = choices
            self.fields[name].widget.attrs["data-kinds"] = " ".join(self.USES[name])
        played = " ".join(kind for kind, _ in self.kinds if kind != "forfeit")
        for fact in self.system.result_facts:
            sides = (("a", battle.general_a.name), ("b", battle.general_b.name)) if fact.per_side else ((None, ""),)
            for side, name in sides:
                key = f"fact_{fact.key}" + (f"_{side}" if side else "")
                label = f"{fact.label}: {name}" if side else fact.label
                if fact.choices:
                    field = forms.ChoiceField(choices=[("", "—")] + [(c, c.replace("_", " ")) for c in fact.choices],
                                              required=False, label=label, help_text=fact.help)
                else:
                    field = forms.IntegerField(required=False, min_value=fact.minimum, max_value=fact.maximum,
                                               label=label, help_text=fact.help)
                field.widget.attrs["data-kinds"] = played
                self.fields[key] = field

    def clean(self):
        data = super().clean()
        kind = data.get("kind")
        if not kind:
            return data
        label = dict(self.kinds)[kind]
        for name, kinds in self.USES.items():
            if kind not in kinds and data.get(name) not in (None, ""):
                self.add_error(name, stray_field_sentence(name, kind, label, self.fields[name].label))
        self.require_who(data, kind)
        return data

    def facts(self):
        facts = {}
        for fact in self.system.result_facts:
            if fact.per_side:
                value = {side: self.cleaned_data.get(f"fact_{fact.key}_{side}") for side in ("a", "b")}
                value = {side: v for side, v in value.items() if v is not None}
            else:
                value = self.cleaned_data.get(f"fact_{fact.key}")
            if value not in (None, "", {}):
                facts[fact.key] = value
        return facts

    def outcome(self):
        return {"kind": self.cleaned_data["kind"], "winner": self.general("winner"), "condition": "",
                "forfeited_by": self.general("forfeited_by"), "facts": self.facts()}

    def replay(self):
        return ""


class GameReportForm(GameOutcomeFields):
    pass


class GameResultForm(GameOutcomeFields):
    reason = ResultForm.base_fields["reason"]


def report_form_for(battle, *args, **kwargs):
    """The players' report form of the battle's game: WARLINE's with its replay, or the game's own."""
    form_class = ReportForm if battle.event.game_system.adjudicated else GameReportForm
    return form_class(*args, battle=battle, **kwargs)


def result_form_for(battle, *args, **kwargs):
    """The organizer's result form of the battle's game."""
    form_class = ResultForm if battle.event.game_system.adjudicated else GameResultForm
    return form_class(*args, battle=battle, **kwargs)
