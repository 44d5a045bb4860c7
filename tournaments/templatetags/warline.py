from django import template

register = template.Library()


@register.filter
def figure(row, key):
    """A standings row's tie-break figure by its registry key."""
    return row.figure(key)


@register.filter
def signed(value):
    return f"+{value}" if isinstance(value, int) and value > 0 else value
