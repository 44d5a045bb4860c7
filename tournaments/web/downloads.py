"""Event day in files: the public CSV/JSON exports (as public as the event page) and the organizer's
whole-event archive, downloaded and imported (it holds the audit trail: the organizer's only)."""
from __future__ import annotations

import json

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render

from tournaments import trust
from tournaments.eventday import archive, exports
from tournaments.web.organizer import organizer_event, refused


class ArchiveImportForm(forms.Form):
    archive = forms.FileField(help_text="A .json event archive downloaded from a WARLINE Organized Play site.")
    slug = forms.SlugField(required=False, max_length=80,
                           help_text="The new event's address /events/<slug>/; empty: the archive's own.")

    def clean_archive(self):
        upload = self.cleaned_data["archive"]
        try:  # the API's size, depth and number limits (archive.read_archive)
            return archive.read_archive(upload.read(settings.OPP_MAX_REQUEST_BYTES + 1))
        except archive.ArchiveError as error:
            raise forms.ValidationError(str(error)) from None



def export(request, slug, what, fmt):
    event = get_object_or_404(trust.visible_events(request.user), slug=slug)
    if what not in exports.BUILDERS or fmt not in ("csv", "json"):
        raise Http404("No such export.")
    table = exports.BUILDERS[what](event)
    filename = f"{event.slug}-{what}.{fmt}"
    if fmt == "json":
        response = JsonResponse(table.as_json(event), json_dumps_params={"ensure_ascii": False, "indent": 1})
    else:
        response = HttpResponse(exports.to_csv(table), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def exports_page(request, slug):
    event = get_object_or_404(trust.visible_events(request.user), slug=slug)
    return render(request, "tournaments/print/exports.html", {
        "event": event, "exports": exports.EXPORTS, "is_organizer": trust.may_organize(request.user, event),
    })


def archive_download(request, slug):
    event = organizer_event(request, slug)
    body = json.dumps(archive.build_archive(event), ensure_ascii=False, indent=1)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{event.slug}-archive.json"'
    return response


@login_required
def archive_import(request):
    """Anyone who may create an event may import one; they become its organizer."""
    if not trust.may_create_event(request.user):
        return refused(request, trust.NOT_GRANTED)
    form = ArchiveImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            event = archive.import_archive(form.cleaned_data["archive"], slug=form.cleaned_data["slug"] or None,
                                           organizers=[request.user])
        except archive.ArchiveError as error:
            form.add_error("archive", str(error))
        else:
            messages.success(request, f"{event.name} is imported as /events/{event.slug}/.")
            return redirect("event-manage", slug=event.slug)
    return render(request, "tournaments/print/import.html", {"form": form}, status=400 if form.errors else 200)
