"""The rating list page /ratings/ (R98): every rated general, best first, with the filters "active in
the last N months" and a name search."""
from django import forms
from django.core.paginator import Paginator
from django.shortcuts import render
from django.utils.translation import gettext_lazy

from tournaments.ratings import queries as ratings

PAGE_SIZE = 50


class RatingFilterForm(forms.Form):
    active = forms.TypedChoiceField(
        label=gettext_lazy("Active in the last"), required=False, coerce=int, empty_value=None,
        choices=[("", gettext_lazy("any time"))] + [(str(months), f"{months} months") for months in ratings.ACTIVE_MONTHS_CHOICES])
    q = forms.CharField(label="General's name", required=False, max_length=100, strip=True,
                        widget=forms.TextInput(attrs={"type": "search"}))


def rating_list(request):
    form = RatingFilterForm(request.GET or None)
    if request.GET and not form.is_valid():  # a hand-made address: say what is wrong, list nothing
        return render(request, "tournaments/ratings.html", {"form": form, "page": None}, status=400)
    data = form.cleaned_data if request.GET else {}
    entries = ratings.rating_list(active_months=data.get("active"), search=data.get("q"))
    page = Paginator(entries, PAGE_SIZE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return render(request, "tournaments/ratings.html", {
        "form": form, "page": page, "count": len(entries), "filtered": bool(data.get("active") or data.get("q")),
        "query": query.urlencode(), "provisional_above": ratings.PROVISIONAL_DEVIATION})
