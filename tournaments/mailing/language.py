"""Each mail in its reader's language: the one they chose (`NotificationSettings.language`, set by the
language switcher), else the site's default (`LANGUAGE_CODE`). A mail is composed by a job or inside
someone else's request, so the language of the moment says nothing about its reader: the composer asks
for theirs with `written_in` around the subject and the body, and every mail ends with `footer`, which
says why it came, in the same language (docs/mail_language.md)."""
from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _

SITE = "WARLINE Organized Play"  # the site's name, the same in every language


def mail_language(chosen: str | None) -> str:
    """The language of a mail to someone who chose `chosen`: theirs when the site speaks it ("de", or
    "de-at" read as "de"), else the site's default. A code the site no longer offers is never used: its
    dates would come out in a language none of the mail's sentences are in."""
    if chosen:
        try:
            return translation.get_supported_language_variant(chosen)
        except LookupError:
            pass
    return settings.LANGUAGE_CODE


@contextmanager
def written_in(chosen: str | None) -> Iterator[str]:
    """Inside it, gettext, the dates and `timeuntil` speak the reader's language (`mail_language`);
    afterwards the request's or job's own again."""
    language = mail_language(chosen)
    with translation.override(language):
        yield language


def per_language(compose: Callable[[], tuple[str, str]]) -> Callable[[], tuple[str, str]]:
    """`compose` made once per language: a mail to many readers (a dispute's generals and organizers)
    is written once in each language among them, not once a reader."""
    made: dict[str, tuple[str, str]] = {}

    def composed():
        language = translation.get_language() or settings.LANGUAGE_CODE
        if language not in made:
            made[language] = compose()
        return made[language]

    return composed


def footer(why: str) -> str:
    """The end of every mail: the site's name and why the reader gets it (a sentence in their language)."""
    return f"\n\n--\n{SITE}. {why}\n"


def settings_footer(settings_url: str) -> str:
    """The footer of the mails a user may switch off: where to choose which mails they get."""
    return footer(_("You get this email because of your account's notification settings; choose which emails "
                    "you get: %(url)s") % {"url": settings_url})
