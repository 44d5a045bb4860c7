from django import template

register = template.Library()


@register.filter
def figure(row, key):
    """A standings row's tie-break figure by its registry key."""
    return row.figure(key)
