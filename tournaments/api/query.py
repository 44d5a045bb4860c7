"""How a list of the API is asked for: paging, ordering, search and filters, the same on every list.

- Paging (`Pages`, the default pagination class): `page` from 1 (or `last`) and `page_size` from 1 to
  `MAX_PAGE_SIZE`; anything else is 400 with a sentence, a page past the end 404 with one.
- Filters (`ListFilters`, django-filter's `filterset_class`), `ordering` (`Ordering`, a view's
  `ordering_fields`) and `search` (`Search`, a view's `search_fields`) apply to a viewset's `list` only:
  an action such as `events/{slug}/groups/` is not filtered, and the schema (schema.py) lists them there
  alone. An action that takes query parameters declares them itself (extend_schema parameters).

A query parameter an operation does not list in the schema is refused (unknown_parameters.py)."""
from django.core.paginator import InvalidPage
from django.db.models import F
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django_filters.rest_framework import DjangoFilterBackend
from rest_framework import serializers
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.filters import BaseFilterBackend, SearchFilter, search_smart_split
from rest_framework.pagination import PageNumberPagination

MAX_PAGE_SIZE = 200
MAX_SEARCH_LENGTH = 100


def is_list(view):
    """Whether `view` answers with its list: a viewset's `list` action, or a plain list view."""
    from rest_framework.mixins import ListModelMixin  # here: DRF's generic views import this module
    from rest_framework.viewsets import ViewSetMixin

    if isinstance(view, ViewSetMixin):
        return getattr(view, "action", None) == "list"
    return isinstance(view, ListModelMixin)


def _whole_number(name, text, smallest, largest=None):
    """`text` as a whole number within bounds, or a 400 naming the parameter and what it takes."""
    try:
        number = int(text)
    except (TypeError, ValueError):
        number = None
    if number is None or number < smallest or (largest is not None and number > largest):
        if largest is None:
            sentence = _("A whole number from %(smallest)s, not %(text)s.")
        else:
            sentence = _("A whole number from %(smallest)s to %(largest)s, not %(text)s.")
        raise ValidationError({name: [sentence % {"smallest": smallest, "largest": largest, "text": repr(text)}]})
    return number


class Pages(PageNumberPagination):
    """Pages of `page_size` (default PAGE_SIZE, 50; at most 200: more is refused, not cut down, so that a
    client never takes a short page for the end of the list)."""

    page_size_query_param = "page_size"
    max_page_size = MAX_PAGE_SIZE

    def get_page_size(self, request):
        text = request.query_params.get(self.page_size_query_param)
        if text is None or text == "":
            return self.page_size
        return _whole_number(self.page_size_query_param, text, 1, self.max_page_size)

    def get_page_number(self, request, paginator):
        text = request.query_params.get(self.page_query_param)
        if text is None or text == "":
            return 1
        if text in self.last_page_strings:
            return paginator.num_pages
        return _whole_number(self.page_query_param, text, 1)

    def paginate_queryset(self, queryset, request, view=None):
        self.request = request
        page_size = self.get_page_size(request)
        paginator = self.django_paginator_class(queryset, page_size)
        number = self.get_page_number(request, paginator)
        try:
            self.page = paginator.page(number)
        except InvalidPage:
            pages = paginator.num_pages
            raise NotFound(ngettext("There is no page %(number)s: the list has %(pages)s page of %(size)s "
                                    "(`page` from 1 to %(pages)s, or `last`).",
                                    "There is no page %(number)s: the list has %(pages)s pages of %(size)s "
                                    "(`page` from 1 to %(pages)s, or `last`).", pages)
                           % {"number": number, "pages": pages, "size": page_size}) from None
        self.display_page_controls = paginator.num_pages > 1 and self.template is not None
        return list(self.page)

    def get_schema_operation_parameters(self, view):
        return [
            {"name": self.page_query_param, "required": False, "in": "query",
             "description": "The page, from 1 (default 1). A page past the end is 404.",
             "schema": {"type": "integer", "minimum": 1}},
            {"name": self.page_size_query_param, "required": False, "in": "query",
             "description": f"Items a page, from 1 to {self.max_page_size} (default {self.page_size}); more is 400.",
             "schema": {"type": "integer", "minimum": 1, "maximum": self.max_page_size}},
        ]


class ListFilters(DjangoFilterBackend):
    """The view's `filterset_class`, on its list only (see `is_list`)."""

    def filter_queryset(self, request, queryset, view):
        if not is_list(view):
            return queryset
        return super().filter_queryset(request, queryset, view)


class Ordering(BaseFilterBackend):
    """`ordering`: one or more of the view's `ordering_fields` ({name the client sends: field or
    expression}), comma-separated, `-` for descending; empty values (a missing date) last either way, and
    the id after them so that equal rows keep one order. Without `ordering` the queryset's own order holds."""

    ordering_param = "ordering"

    @staticmethod
    def fields_of(view):
        return getattr(view, "ordering_fields", None) or {}

    def requested(self, request, view):
        text = request.query_params.get(self.ordering_param, "")
        fields = self.fields_of(view)
        keys = [part.strip() for part in text.split(",") if part.strip()]
        unknown = [key for key in keys if key.removeprefix("-") not in fields]
        if unknown:
            raise ValidationError({self.ordering_param: [
                _("Cannot order by %(unknown)s: order by %(fields)s (comma-separated, `-` before a name for "
                  "descending).") % {"unknown": ", ".join(repr(key) for key in unknown), "fields": ", ".join(fields)}]})
        return keys

    def filter_queryset(self, request, queryset, view):
        fields = self.fields_of(view)
        if not fields or not is_list(view):
            return queryset
        keys = self.requested(request, view)
        if not keys:
            return queryset
        order = []
        for key in keys:
            field = fields[key.removeprefix("-")]
            expression = F(field) if isinstance(field, str) else field
            order.append(expression.desc(nulls_last=True) if key.startswith("-")
                         else expression.asc(nulls_last=True))
        return queryset.order_by(*order, "pk")

    def get_schema_operation_parameters(self, view):
        fields = self.fields_of(view)
        if not fields:
            return []
        names = "|".join(fields)
        return [{"name": self.ordering_param, "required": False, "in": "query",
                 "description": f"Order by {', '.join(fields)}: comma-separated, `-` before a name for "
                                f"descending (e.g. `-{next(iter(fields))}`); empty values last.",
                 "schema": {"type": "string", "pattern": f"^-?({names})(,-?({names}))*$"}}]


class Search(SearchFilter):
    """`search`: every word (ignoring case) in one of the view's `search_fields`."""

    def get_search_terms(self, request):
        text = request.query_params.get(self.search_param, "")
        field = serializers.CharField(max_length=MAX_SEARCH_LENGTH, allow_blank=True)
        try:
            return search_smart_split(field.run_validation(text))  # DRF's split: words, or "quoted phrases"
        except ValidationError as error:
            raise ValidationError({self.search_param: error.detail}) from None

    def filter_queryset(self, request, queryset, view):
        if not getattr(view, "search_fields", None) or not is_list(view):
            return queryset
        return super().filter_queryset(request, queryset, view)

    def get_schema_operation_parameters(self, view):
        fields = getattr(view, "search_fields", None)
        if not fields:
            return []
        where = ", ".join(getattr(view, "search_description", None) or fields)
        return [{"name": self.search_param, "required": False, "in": "query",
                 "description": f"Words, each found (ignoring case) in {where}.",
                 "schema": {"type": "string", "maxLength": MAX_SEARCH_LENGTH}}]
