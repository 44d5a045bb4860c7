"""Event day in files: the public CSV/JSON exports (as public as the event page), the lists export (each
list as far as its viewer may see it: closed lists, the organizers only) and the organizer's whole-event
archive, downloaded and imported (it holds the audit trail: the organizer's only)."""
from __future__ import annotations

import json

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import translation
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments import trust
from tournaments.eventday import archive, exports
from tournaments.web.organizer import organizer_event, refused

# The archive a refused import keeps for the next try (R97): only the address was wrong, so the user
# fixes that alone. Its text is at most settings.OPP_MAX_REQUEST_BYTES (read_archive refuses more).
KEPT_ARCHIVE = "archive_import_kept"


class ArchiveImportForm(forms.Form):
    archive = forms.FileField(required=False,
                              help_text=gettext_lazy("A .json event archive downloaded from a WARLINE "
                                                     "Organized Play site."))
    slug = forms.SlugField(required=False, max_length=80, label="Address",
                           help_text=gettext_lazy("The new event's address /events/<slug>/; empty: the "
                                                  "archive's own."))

    def __init__(self, *args, kept=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.kept = kept  # {"name": file name, "text": its JSON} of the previous try, or None
        self.say_kept()

    def say_kept(self):
        """The file field's help names the kept file (its bound field copied the help when first read)."""
        if self.kept:
            text = (_("Kept from your last try: %(name)s (%(size)s bytes). Import it again as it is, or choose "
                      "another file.") % {"name": self.kept["name"], "size": f"{len(self.kept['text'].encode()):,}"})
            self.fields["archive"].help_text = self["archive"].help_text = text

    def clean_archive(self):
        upload = self.cleaned_data["archive"]
        if upload:
            raw = upload.read(settings.OPP_MAX_REQUEST_BYTES + 1)
            name = upload.name
        elif self.kept:
            raw, name = self.kept["text"].encode(), self.kept["name"]
        else:
            raise forms.ValidationError(_("Choose the archive file to import."))
        try:  # the API's size, depth and number limits (archive.read_archive)
            document = archive.read_archive(raw)
        except archive.ArchiveError as error:
            self.kept = None
            raise forms.ValidationError(str(error)) from None
        self.kept = {"name": name, "text": raw.decode("utf-8")}  # read_archive read it as UTF-8
        return document


def export(request, slug, what, fmt):
    event = get_object_or_404(trust.visible_events(request.user), slug=slug)
    if fmt not in ("csv", "json"):
        raise Http404(_("No such export."))
    if what == exports.LISTS and exports.has_lists(event):
        if not exports.may_export_lists(request.user, event):
            return refused(request, _("%(event)s's lists are not public: only its organizers see them, and "
                                      "each player their own.") % {"event": event.name})
        build, arguments = exports.lists_table, (event, request.user)
    elif what in exports.BUILDERS:
        build, arguments = exports.BUILDERS[what], (event,)
    else:
        raise Http404(_("No such export."))
    filename = f"{event.slug}-{what}.{fmt}"
    # A data format: the labels in its cells (a registration's status, a stage, a result) are English for
    # every reader, so a download of the same event is the same file whatever the page's language.
    with translation.override(None):
        table = build(*arguments)
        if fmt == "json":
            response = JsonResponse(table.as_json(event), json_dumps_params={"ensure_ascii": False, "indent": 1})
        else:
            response = HttpResponse(exports.to_csv(table), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    if what == exports.LISTS:  # each viewer's own selection of lists: never kept by a shared cache
        patch_cache_control(response, private=True, no_store=True)
    return response


def exports_page(request, slug):
    event = get_object_or_404(trust.visible_events(request.user), slug=slug)
    return render(request, "tournaments/print/exports.html", {
        "event": event, "exports": exports.offered(event, request.user),
        "is_organizer": trust.may_organize(request.user, event),
    })


def archive_download(request, slug):
    event = organizer_event(request, slug)
    body = json.dumps(archive.build_archive(event), ensure_ascii=False, indent=1)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{event.slug}-archive.json"'
    return response


@login_required
def archive_import(request):
    """Anyone who may create an event may import one; they become its owner and organizer, and no
    other account of this site is named by it (R97). An import refused for its address keeps the file."""
    if not trust.may_create_event(request.user):
        return refused(request, trust.NOT_GRANTED)
    if request.method != "POST":  # a new visit starts without the last try's file
        request.session.pop(KEPT_ARCHIVE, None)
    kept = request.session.get(KEPT_ARCHIVE) if request.method == "POST" else None
    form = ArchiveImportForm(request.POST or None, request.FILES or None, kept=kept)
    if request.method == "POST" and form.is_valid():
        try:
            event = archive.import_archive(form.cleaned_data["archive"], slug=form.cleaned_data["slug"] or None,
                                           organizers=[request.user])
        except archive.SlugTaken as error:
            form.add_error("slug", _("An event at /events/%(error_slug)s/ exists already: type another "
                                     "address for the new event here and import again; your archive is "
                                     "kept.") % {"error_slug": error.slug})
        except archive.ArchiveError as error:
            if error.field == "slug":
                form.add_error("slug", _("%(error)s Type another address for the new event here; your "
                                         "archive is kept.") % {"error": error})
            else:
                form.kept = None
                form.add_error("archive", str(error))
        else:
            request.session.pop(KEPT_ARCHIVE, None)
            messages.success(request, _("%(event)s is imported as /events/%(event_slug)s/.")
                                      % {"event": event.name, "event_slug": event.slug})
            for warning in event.archive_warnings:
                messages.warning(request, warning)
            return redirect("event-manage", slug=event.slug)
    if request.method == "POST":
        if form.kept:
            request.session[KEPT_ARCHIVE] = form.kept
            form.say_kept()
        else:
            request.session.pop(KEPT_ARCHIVE, None)
    return render(request, "tournaments/print/import.html", {"form": form}, status=400 if form.errors else 200)
