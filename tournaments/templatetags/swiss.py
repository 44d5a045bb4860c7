"""Figures of Swiss standings as players read them."""
from django import template

register = template.Library()


@register.filter
def points(value):
    """3.0 -> "3", 1.5 -> "1.5", 19/3 -> "6.33"."""
    if value in (None, ""):
        raise ValueError("points of nothing: a name in the template does not resolve")
    number = round(float(value), 2)
    return str(int(number)) if number.is_integer() else f"{number:g}"


@register.filter
def figure_text(value, key):
    """A tie-breaker's figure: a rate as a percentage, the others as numbers."""
    if value is None:
        return "–"
    if key == "omw":
        return f"{float(value) * 100:.1f}%"
    return points(value)


@register.filter
def words(value):
    """A stored choice as words: "side_dead" -> "side dead"."""
    return str(value).replace("_", " ")


@register.filter
def fact_lines(battle):
    """A result's raw facts in words, each with its label, per side with the generals' names."""
    lines = []
    for fact in battle.event.game_system.result_facts:
        value = (battle.facts or {}).get(fact.key)
        if value in (None, "", {}):
            continue
        if fact.per_side:
            names = {"a": battle.general_a.name, "b": battle.general_b.name}
            value = ", ".join(f"{names[side]} {figure}" for side, figure in sorted(value.items()))
        lines.append(f"{fact.label}: {words(value)}")
    return lines
