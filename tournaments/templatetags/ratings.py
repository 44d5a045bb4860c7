from django import template

from tournaments.ratings.chart import rating_chart as chart_of
from tournaments.ratings.chart import week_label

register = template.Library()


@register.simple_tag
def rating_chart(history):
    """`{% rating_chart rating_history as chart %}`: the SVG chart's coordinates (tournaments.ratings.chart)
    of a general's rating points, None without points."""
    return chart_of([(point.period, point.rating, point.deviation) for point in history])


@register.filter
def week_of(day):
    """A rating period (a Monday) in words: "12 Jan 2026"."""
    return week_label(day) if day else ""
