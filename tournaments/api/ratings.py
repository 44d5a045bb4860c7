"""`GET ratings/`: the rating list (R98), as the page /ratings/ shows it."""
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.generics import GenericAPIView
from rest_framework.permissions import AllowAny

from tournaments.api.serializers import GeneralBriefSerializer
from tournaments.api.views import ERROR
from tournaments.ratings import queries as ratings


class RatingListQuerySerializer(serializers.Serializer):
    active_months = serializers.IntegerField(
        required=False, min_value=1, max_value=1200,
        help_text="Only generals with a rated battle in the last this many months (the page offers 3, 6 and 12).")
    search = serializers.CharField(required=False, allow_blank=True, max_length=100,
                                   help_text="A part of the general's name, ignoring case and spaces.")


class RatingEntrySerializer(serializers.Serializer):
    rank = serializers.IntegerField(help_text="1 for the highest rating; equal ratings (to the point) share a rank.")
    general = GeneralBriefSerializer()
    rating = serializers.FloatField(source="rating.rating")
    deviation = serializers.FloatField(source="rating.deviation_now", help_text=(
        "Rating deviation grown for the weeks since the last rated battle."))
    provisional = serializers.BooleanField(source="rating.provisional", help_text=(
        f"Deviation above {ratings.PROVISIONAL_DEVIATION:g}: too few or too old rated battles to say much."))
    volatility = serializers.FloatField(source="rating.volatility")
    battles = serializers.IntegerField(source="rating.battles", help_text="Rated battles in all.")
    last_played = serializers.DateField(source="rating.period", help_text=(
        "The Monday of the latest week (ISO week, in the event's time zone) with a rated battle."))

    def to_representation(self, entry):
        data = super().to_representation(entry)
        data["rating"], data["deviation"] = round(data["rating"], 2), round(data["deviation"], 2)
        return data


class RatingListView(GenericAPIView):
    """The rating list: every rated general, best first (Glicko-2 over the counted battles of rated
    events, R98); filters `active_months` and `search`. Paged like the other lists."""

    permission_classes = [AllowAny]
    serializer_class = RatingEntrySerializer
    filter_backends = []  # the query's own two filters, checked by RatingListQuerySerializer

    @extend_schema(parameters=[RatingListQuerySerializer], responses={200: RatingEntrySerializer(many=True),
                                                                      400: ERROR})
    def get(self, request):
        query = RatingListQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        listed = ratings.rating_list(active_months=query.validated_data.get("active_months"),
                                     search=query.validated_data.get("search"))
        page = self.paginate_queryset(listed)
        return self.get_paginated_response(self.get_serializer(page, many=True).data)
