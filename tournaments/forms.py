"""Forms of the organizer and player pages. They check the shape of what was typed; the rules are
checked by the services, whose refusals are shown on the field they concern."""
from django import forms

from tournaments.models import VARIANT_CHOICES, Battle, Disqualification, Event


def show_refusal(form, error):
    """Puts a service's refusal on the field it names (or on the whole form)."""
    field = getattr(error, "field", None)
    form.add_error(field if field in form.fields else None, str(error))


class EventForm(forms.Form):
    name = forms.CharField(max_length=160)
    slug = forms.SlugField(max_length=80, label="Address", help_text="The event page will be /events/<address>/.")
    kind = forms.ChoiceField(choices=Event.Kind.choices)
    variants = forms.MultipleChoiceField(choices=VARIANT_CHOICES, required=False,
                                         widget=forms.CheckboxSelectMultiple,
                                         label="Rules Variants and Modules",
                                         help_text="Fixed for every battle once the event starts.")
    battalion_count = forms.IntegerField(required=False, min_value=6, max_value=16,
                                         help_text="Battalions per army, with Army Recruiting only.")
    forfeit_award_opp = forms.IntegerField(initial=1, min_value=0, max_value=5, label="OPP for a forfeit",
                                           help_text="R22: the opponent of a forfeit gets 1 OPP by default.")
    forfeit_counts_as_victory = forms.BooleanField(initial=True, required=False,
                                                   label="A forfeit counts as a Victory for tie-breakers")
    forfeits_to_disqualify = forms.IntegerField(initial=2, required=False, min_value=1, max_value=99,
                                                help_text="Forfeits after which disqualification is offered.")
    venue = forms.CharField(max_length=160, required=False)
    starts_on = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))


class RegisterForm(forms.Form):
    name = forms.CharField(max_length=120, label="General",
                           help_text="An existing general's exact name, or a new general.")
    seed = forms.IntegerField(required=False, min_value=1, help_text="Seeding, 1 best (for seeded groups).")


class FormGroupsForm(forms.Form):
    group_count = forms.TypedChoiceField(coerce=int, label="Qualifying groups")
    method = forms.ChoiceField(choices=[("random", "Random draw (seed shown to everyone)"),
                                        ("seeded", "By seeding, snake order")], initial="random")
    seed = forms.IntegerField(required=False, min_value=0, max_value=2**62,
                              help_text="Leave empty for a fresh random seed.")

    def __init__(self, *args, partitions=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["group_count"].choices = [(count, f"{count} groups of {size}") for count, size in partitions]


class DisqualifyForm(forms.Form):
    general = forms.TypedChoiceField(coerce=int)
    reason = forms.ChoiceField(choices=Disqualification.Reason.choices)
    details = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args, generals=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["general"].choices = [(g.pk, g.name) for g in generals]


class OutcomeFields(forms.Form):
    """The result of one battle, with the two generals as the only choices."""

    kind = forms.ChoiceField(choices=[("victory", "Victory"), ("stalemate", "Stalemate"), ("resolve", "Resolve"),
                                      ("forfeit", "Forfeit")])
    winner = forms.TypedChoiceField(coerce=int, required=False, empty_value=None)
    condition = forms.ChoiceField(choices=[("", "—")] + Battle.Condition.choices, required=False)
    forfeited_by = forms.TypedChoiceField(coerce=int, required=False, empty_value=None, label="Forfeited by")

    def __init__(self, *args, battle, **kwargs):
        super().__init__(*args, **kwargs)
        self.battle = battle
        choices = [("", "—"), (battle.general_a_id, battle.general_a.name),
                   (battle.general_b_id, battle.general_b.name)]
        for name in ("winner", "forfeited_by", "player_1"):
            if name in self.fields:
                self.fields[name].choices = choices

    def clean(self):
        data = super().clean()
        kind = data.get("kind")
        if kind == "victory":
            if not data.get("winner"):
                self.add_error("winner", "Who won?")
            if not data.get("condition"):
                self.add_error("condition", "By which victory condition?")
        if kind == "forfeit" and not data.get("forfeited_by"):
            self.add_error("forfeited_by", "Who forfeited?")
        return data

    def general(self, name):
        pk = self.cleaned_data.get(name)
        return next((g for g in self.battle.generals() if g.pk == pk), None)

    def outcome(self):
        return {"kind": self.cleaned_data["kind"], "winner": self.general("winner"),
                "condition": self.cleaned_data.get("condition") or "",
                "forfeited_by": self.general("forfeited_by")}


class ReportForm(OutcomeFields):
    player_1 = forms.TypedChoiceField(coerce=int, required=False, empty_value=None, label="Player-1",
                                      help_text="Who was Player-1 at the table (decided by the Challenge).")
    replay_file = forms.FileField(required=False, label="Replay log (file)",
                                  help_text="A WARLINE replay log (JSON), at most 1 MiB; the rules engine checks it.")
    replay_text = forms.CharField(required=False, label="…or paste the replay log",
                                  widget=forms.Textarea(attrs={"rows": 4, "spellcheck": "false"}))

    def replay(self):
        upload = self.cleaned_data.get("replay_file")
        return upload.read() if upload else self.cleaned_data.get("replay_text", "")


class ResultForm(OutcomeFields):
    reason = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}),
                             help_text="Required when correcting a result or overriding a report.")


class DisputeForm(forms.Form):
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), label="What is wrong?")


class SeasonForm(forms.Form):
    name = forms.CharField(max_length=120, label="Season name", help_text="e.g. Winter 2026")


class LeagueBattleForm(forms.Form):
    general_a = forms.TypedChoiceField(coerce=int, label="General")
    general_b = forms.TypedChoiceField(coerce=int, label="Opponent")

    def __init__(self, *args, members=(), **kwargs):
        super().__init__(*args, **kwargs)
        for name in ("general_a", "general_b"):
            self.fields[name].choices = [(g.pk, g.name) for g in members]


class ArrangedBattleForm(forms.Form):
    """A league member reports a battle they arranged with another member."""

    opponent = forms.TypedChoiceField(coerce=int)
    kind = forms.ChoiceField(choices=[("victory", "Victory"), ("stalemate", "Stalemate"), ("resolve", "Resolve")])
    won = forms.ChoiceField(choices=[("me", "I won"), ("opponent", "My opponent won")], required=False,
                            label="Who won")
    condition = forms.ChoiceField(choices=[("", "—")] + Battle.Condition.choices, required=False)
    replay_file = forms.FileField(required=False, label="Replay log (file)")

    def __init__(self, *args, opponents=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["opponent"].choices = [(g.pk, g.name) for g in opponents]

    def clean(self):
        data = super().clean()
        if data.get("kind") == "victory":
            if not data.get("won"):
                self.add_error("won", "Who won?")
            if not data.get("condition"):
                self.add_error("condition", "By which victory condition?")
        return data
