"""Every sentence a template shows is marked for translation (tests/i18n/template_scan.py), and the German
catalogs of the pages are complete and compiled: every msgid translated, none fuzzy, the .mo files holding
exactly what the .po files say."""
from pathlib import Path

import polib
import pytest

from tests.i18n.template_scan import unmarked, unmarked_in

ROOT = Path(__file__).resolve().parents[2]
CATALOGS = [ROOT / "locale" / "de" / "LC_MESSAGES" / f"{domain}.po" for domain in ("django", "djangojs")]


def test_no_template_holds_an_unmarked_sentence():
    found = unmarked_in(ROOT / "templates")
    assert found == [], "unmarked text (file:line: text):\n" + "\n".join(found)


def test_the_scanner_finds_each_kind_of_unmarked_text_and_passes_marked_text():
    sample = "\n".join([
        '{% load i18n %}<h1>{% translate "Standings" %}</h1>',                      # 1 marked
        "<p>Players still tied share the place.</p>",                                # 2 a sentence
        '<a href="#" title="Battles played">{{ count }}</a>',                      # 3 a hover title
        '<img src="x.png" alt="A battalion">',                                      # 4 alt text
        '<input type="submit" value="Save the details">',                           # 5 an input's label
        '<input placeholder="Your name">',                                          # 6 a placeholder
        '<nav aria-label="Pages of generals"></nav>',                              # 7 a screen reader's name
        '{{ heading|default:"Signing in is locked" }}',                             # 8 a default sentence
        '{% include "partials/pager.html" with label="Pages of the rating list" %}',  # 9 a phrase handed on
        "{% blocktranslate trimmed %}Hello {{ name }}{% endblocktranslate %}",       # 10 marked
        "{% comment %}Notes for the reader of the code{% endcomment %}",             # 11 a comment
        '<script>var words = "not shown";</script><style>p { color: red }</style>',  # 12 code
        "<td>{{ row.place }} · OPP · WARLINE · × 12</td>",                          # 13 names and symbols
        '<button type="submit" name="answer" value="accept">{% translate "Accept" %}</button>',  # 14 a sent value
        "<p>{{ a }} v {{ b }}</p>",                                                   # 15 one letter
    ])
    assert [line for line, _text in unmarked(sample)] == [2, 3, 4, 5, 6, 7, 8, 9]


@pytest.mark.parametrize("path", CATALOGS, ids=lambda path: path.name)
def test_the_german_catalog_is_complete_and_its_mo_file_is_up_to_date(path):
    po = polib.pofile(str(path))
    assert po.metadata["Language"] == "de"
    assert [entry.msgid for entry in po if not entry.translated() or entry.obsolete] == []
    assert [entry.msgid for entry in po if "fuzzy" in entry.flags] == []
    compiled = polib.mofile(str(path.with_suffix(".mo")))

    def entries(catalog):
        return {(entry.msgctxt, entry.msgid, entry.msgid_plural):
                (entry.msgstr, tuple(sorted(entry.msgstr_plural.items())))
                for entry in catalog if entry.msgid and not entry.obsolete}
    assert entries(compiled) == entries(po), f"{path.name}: run manage.py compilemessages -l de"
