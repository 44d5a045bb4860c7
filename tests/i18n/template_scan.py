"""Finds the words in a Django template that a reader would see untranslated: text between tags, the
attributes a screen reader or a hover reads (title, aria-label, alt, placeholder, an input button's value) and the
sentences handed to a template through `default:"…"` or an include's `with name="…"`. Text inside
{% translate %} / {% blocktranslate %}, comments, <script> and <style> is skipped.

A sentence, here, is any run of text with a word of two letters or more; the few names and abbreviations
that read the same in every language are allowed (ALLOWED)."""
import re
from html.parser import HTMLParser
from pathlib import Path

# Names and abbreviations that stay as they are in every language (compared ignoring case: "csv" in "standings.csv").
ALLOWED = {"warline", "opp", "csv", "json", "api", "utc", "qr", "svg", "redoc", "swagger"}
WORD = re.compile(r"[^\W\d_]{2,}")
TAG = re.compile(r"\{%.*?%\}|\{\{.*?\}\}|\{#.*?#\}", re.S)
# Regions of a template that never reach the reader untranslated.
SKIPPED_BLOCKS = {"comment": "endcomment", "blocktranslate": "endblocktranslate", "blocktrans": "endblocktrans"}
# A literal in a variable or a tag that becomes page text: {{ x|default:"…" }}, and a phrase handed on by
# {% include … with label="…" %} (a one-word literal there is a switch the included template compares).
SHOWN_LITERAL = re.compile(r'(?:default(?:_if_none)?|yesno):"([^"]*)"')
PASSED_PHRASE = re.compile(r'\s\w+="([^"]*\s[^"]*)"')
READ_ATTRIBUTES = {"title", "aria-label", "alt", "placeholder"}
PLACEHOLDER = "\x01"  # stands for a template tag, keeps the text around it apart and the lines where they were


def words(text):
    return [word for word in WORD.findall(text) if word.lower() not in ALLOWED]


def blank(source):
    """The template's HTML with its tags, comments and translated regions replaced (newlines kept), and the
    untranslated literals found in its tags as (line, text)."""
    literals, out, skipping, position = [], [], None, 0
    for match in TAG.finditer(source):
        chunk = source[position:match.start()]
        out.append(re.sub(r"[^\n]", " ", chunk) if skipping else chunk)
        token = match.group(0)
        line = source.count("\n", 0, match.start()) + 1
        inner = token[2:-2].strip()
        name = inner.split()[0] if inner else ""
        if skipping:
            if name == skipping:
                skipping = None
        elif token.startswith("{%") and name in SKIPPED_BLOCKS:
            skipping = SKIPPED_BLOCKS[name]
        elif not token.startswith("{#") and name not in ("translate", "trans"):
            for literal in SHOWN_LITERAL.findall(token) + PASSED_PHRASE.findall(token):
                if words(literal) and not literal.endswith(".html"):
                    literals.append((line, literal))
        out.append(PLACEHOLDER + "\n" * token.count("\n"))
        position = match.end()
    tail = source[position:]
    out.append(re.sub(r"[^\n]", " ", tail) if skipping else tail)
    return "".join(out), literals


class _Reader(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found, self.hidden = [], 0

    def handle_starttag(self, tag, attrs):
        tag = tag.strip(PLACEHOLDER)
        if tag in ("script", "style"):
            self.hidden += 1
        attrs = dict(attrs)
        read = [value for name, value in attrs.items() if name in READ_ATTRIBUTES]
        if tag == "input" and (attrs.get("type") or "") in ("submit", "button", "reset"):
            read.append(attrs.get("value"))  # the button's label (a <button>'s value is only sent, never shown)
        for value in read:
            if value and words(value):
                self.found.append((self.getpos()[0], value))

    def handle_endtag(self, tag):
        if tag.strip(PLACEHOLDER) in ("script", "style") and self.hidden:
            self.hidden -= 1

    def handle_data(self, data):
        if not self.hidden and words(data):
            self.found.append((self.getpos()[0] + data[:len(data) - len(data.lstrip())].count("\n"), data))


def unmarked(source):
    """[(line, text)]: what the template shows a reader without marking it for translation."""
    html, literals = blank(source)
    reader = _Reader()
    reader.feed(html)
    reader.close()
    found = [(line, " ".join(text.replace(PLACEHOLDER, " ").split())) for line, text in reader.found + literals]
    return sorted(found)


def unmarked_in(directory):
    """["file:line: text"] over every .html below the directory."""
    directory = Path(directory)
    return [f"{path.relative_to(directory)}:{line}: {text}"
            for path in sorted(directory.rglob("*.html"))
            for line, text in unmarked(path.read_text(encoding="utf-8"))]
