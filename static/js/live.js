/* Pages that update themselves (docs/live-pages.md).

   The element with data-live names a revision endpoint and the revision the page was rendered at.
   About once a second the script asks the endpoint with If-None-Match: 304 while nothing changed.
   On a new revision it fetches the page again (the same view, so the same permissions) and replaces
   each top-level child of the data-live element that changed. An element marked data-live-parts is
   updated child by child instead, so one battle's line or form can stay while its neighbours change.
   A part the reader is using (a form with something typed or chosen, a focused field, a form they
   opened) is never replaced: it stays, with a "Changed — review the change" notice; the button puts
   the new version in its place and carries what was typed into it, so nothing entered is lost and no
   change is hidden. Focus on a link or button in a replaced part moves to the same place in the new
   part. Changes are announced politely to screen readers.
   A [data-rotate="seconds"] element shows its children one at a time (the venue screen).
   With data-live-stream (a published event's public pages, when the site runs live processes) the
   script listens to the event's server-sent events instead of polling, and fetches the page after a
   random moment within the spread_ms the server sends (so the readers of a busy event do not all
   ask at once). When the stream cannot be had (503, 404, repeated errors) it polls, and tries the
   stream again a minute or so later. A hidden tab closes its stream and opens it again when shown. */
(function () {
  "use strict";
  // The words in the page's language: Django's JavaScript catalog (/jsi18n/, loaded before this script by
  // the page) defines gettext and interpolate; without it the words stay English.
  var gettext = window.gettext || function (text) { return text; };
  var interpolate = window.interpolate || function (format, values) {
    return format.replace(/%\((\w+)\)s/g, function (all, name) { return values[name]; });
  };
  // Rotation state lives here, by the box's id, so a box replaced by an update keeps its place.
  var rotation = {};
  // Each part -> the signature of the server's HTML it was made from. Parts are compared by it, not
  // by their current HTML, which the reader (a <details> opened) and other scripts (fields hidden by
  // result-form.js) change.
  var source = typeof WeakMap === "function" ? new WeakMap() : null;
  var root = document.querySelector("[data-live]");
  // A <details> the reader opened holds a form they are about to fill in.
  document.addEventListener("toggle", function (event) {
    if (event.target && event.target.tagName === "DETAILS") { event.target.liveOpened = event.target.open; }
  }, true);
  if (root) { follow(root); }
  rotateAll();

  function follow(root) {
    var url = root.getAttribute("data-live");
    var shown = root.getAttribute("data-live-revision");  // what the page shows
    var latest = shown;                                    // what the server has
    var period = 1000, failures = 0, timer = null;
    var streamUrl = typeof EventSource === "function" ? root.getAttribute("data-live-stream") : null;
    var stream = null, streaming = false, streamErrors = 0, streamAfter = 0, fetchTimer = null;
    var retryAt = 0;  // while a part in use holds an update back, fetch the page again only now and then
    var status = document.createElement("div");
    status.setAttribute("role", "status");
    status.setAttribute("aria-live", "polite");
    status.className = "live-status";
    status.style.cssText = "position:absolute;width:1px;height:1px;margin:-1px;overflow:hidden;" +
      "clip:rect(0 0 0 0);white-space:nowrap;border:0;padding:0";
    document.body.appendChild(status);
    Array.prototype.forEach.call(root.children, function (part) { remember(part, part); });

    function schedule(delay) {
      clearTimeout(timer);
      if (!document.hidden && !streaming) { timer = setTimeout(poll, delay); }
    }

    // The stream tells the revision as it changes; the page is fetched as after a poll.
    function listen() {
      if (stream || document.hidden || !streamUrl) { return; }
      stream = new EventSource(streamUrl);
      stream.onopen = function () {
        streaming = true;  // polling, if it ran meanwhile, stops
        streamErrors = 0;
        clearTimeout(timer);
      };
      stream.onmessage = function (event) {
        var answer;
        try { answer = JSON.parse(event.data); } catch (ignore) { return; }
        streamErrors = 0;
        latest = answer.revision;
        period = answer.poll_ms || period;
        if (latest !== shown && fetchTimer === null) { catchUp(Math.random() * (answer.spread_ms || 0)); }
      };
      stream.onerror = function () {
        // EventSource reconnects by itself (after the server's retry:), e.g. when the server ends a stream
        // that lived long enough; a refusal (503 when the live process is full, 404) closes it for good.
        streamErrors += 1;
        if (stream.readyState === EventSource.CLOSED || streamErrors >= 3) { fallBack(); }
      };
    }

    function closeStream() {
      if (stream) { stream.close(); }
      stream = null;
      streaming = false;
    }

    // Poll instead, and try the stream again after a while (live processes restart, a full one frees up).
    function fallBack() {
      closeStream();
      streamErrors = 0;
      var pause = 30000 + Math.random() * 60000;
      streamAfter = Date.now() + pause;
      setTimeout(listen, pause);
      schedule(0);
    }

    // While streaming: fetch the page once it lags behind the stream's revision.
    function catchUp(delay) {
      clearTimeout(fetchTimer);
      fetchTimer = setTimeout(function () {
        fetchTimer = null;
        if (latest === shown || document.hidden) { return; }
        if (Date.now() < retryAt) { catchUp(retryAt - Date.now()); return; }
        refresh().then(function () {
          failures = 0;
          if (latest !== shown) { catchUp(Math.max(0, retryAt - Date.now())); }
        }, function () {
          failures += 1;  // the server is away or busy: ask less often, up to every 30 s
          catchUp(Math.min(30000, period * Math.pow(2, failures)));
        });
      }, delay);
    }

    function poll() {
      var headers = latest ? { "If-None-Match": '"' + latest + '"' } : {};
      fetch(url, { headers: headers, cache: "no-store", credentials: "same-origin" })
        .then(function (response) {
          if (response.status === 304) { return null; }
          if (response.status === 401 || response.status === 403 || response.status === 404) {
            throw new Error("stop");
          }
          if (!response.ok) { throw new Error("retry"); }
          return response.json();
        })
        .then(function (answer) {
          failures = 0;
          if (answer) {
            latest = answer.revision;
            period = answer.poll_ms || period;
          }
          if (latest !== shown && Date.now() >= retryAt) { return refresh(); }
        })
        .then(function () { schedule(period); },
              function (error) {
                if (error && error.message === "stop") { streamUrl = null; return; }  // nor the stream again
                failures += 1;  // the server is away or busy: ask less often, up to every 30 s
                schedule(Math.min(30000, period * Math.pow(2, failures)));
              });
    }

    function refresh() {
      var wanted = latest;
      return fetch(root.getAttribute("data-live-page") || location.href, { cache: "no-store", credentials: "same-origin" })
        .then(function (response) {
          if (!response.ok) { throw new Error("retry"); }
          return response.text();
        })
        .then(function (html) {
          var fresh = new DOMParser().parseFromString(html, "text/html").querySelector("[data-live]");
          if (!fresh) { return; }
          var done = swap(root, fresh, fresh.getAttribute("data-live-clock"));
          // While a part is held, the page is fetched again now and then: the part takes the newest
          // version as soon as the reader leaves it, and its "review" button applies the newest.
          if (done) { shown = fresh.getAttribute("data-live-revision") || wanted; } else { retryAt = Date.now() + 5000; }
        });
    }

    document.addEventListener("visibilitychange", function () {
      if (document.hidden) {
        clearTimeout(timer);
        clearTimeout(fetchTimer);
        fetchTimer = null;
        closeStream();  // a hidden tab holds no connection; shown, it asks again at once
      } else if (streamUrl && Date.now() >= streamAfter) {
        listen();
      } else {
        schedule(0);
      }
    });
    if (streamUrl) { listen(); } else { schedule(period); }

    function swap(root, fresh, clock) {
      var state = { changed: 0, held: false, noticed: 0, active: document.activeElement, focusedPart: null,
                    focusedPlace: -1 };
      var scroll = window.scrollY;
      swapParts(root, fresh, state);
      if (state.focusedPart !== null && state.focusedPlace >= 0) {
        var target = state.focusedPart.querySelectorAll(FOCUSABLE)[state.focusedPlace];
        if (target) { target.focus({ preventScroll: true }); }
      }
      if (state.changed || state.noticed) {
        window.scrollTo(window.scrollX, scroll);
        rotateAll();
        // The time as the page writes it (the event's zone, named), not the browser's zone.
        var time = clock || new Date().toLocaleTimeString();
        announce(interpolate(state.noticed ?
          gettext("Updated at %(time)s; a part you are filling in changed: review the change there, what you typed is kept.") :
          state.held ? gettext("Updated at %(time)s; the form you are filling in is kept as it is.") :
          gettext("Updated at %(time)s."), { time: time }, true));
      }
      return !state.held;
    }

    function announce(sentence) { status.textContent = sentence; }

    // Parts are matched by a key (their id, else their tag and heading), so a part that appears or
    // goes away leaves the others in place; a part in use stays even when the new page drops it.
    function swapParts(container, fresh, state) {
      var olds = Array.prototype.slice.call(container.children);
      var byKey = {};
      keyed(olds).forEach(function (key, index) { byKey[key] = olds[index]; });
      var kept = [], heldBefore = state.held;
      var news = Array.prototype.slice.call(fresh.children);
      var final = keyed(news).map(function (key, index) {
        var neu = news[index], old = byKey[key];
        if (old) {
          kept.push(old);
          var wanted = signature(neu);
          if (sourceOf(old) === wanted) { settle(old); return old; }
          if (inUse(old)) {
            if (old.hasAttribute("data-live-parts") && neu.hasAttribute("data-live-parts")) {
              sameAttributes(old, neu);
              var before = state.held;
              state.held = false;
              swapParts(old, neu, state);
              if (!state.held && source) { source.set(old, wanted); }
              state.held = state.held || before;
              return old;
            }
            hold(old, neu, state);
            return old;
          }
        }
        state.changed += 1;
        var part = adopt(neu);
        remember(part, neu);
        if (old && state.active && old.contains(state.active)) {
          state.focusedPart = part;
          state.focusedPlace = Array.prototype.indexOf.call(old.querySelectorAll(FOCUSABLE), state.active);
        }
        return part;
      });
      olds.forEach(function (old, index) {  // a part the new page drops, kept while in use
        if (kept.indexOf(old) >= 0 || !inUse(old)) { return; }
        hold(old, null, state);
        var before = index > 0 ? final.indexOf(olds[index - 1]) : -1;
        final.splice(before + 1, 0, old);
      });
      if (final.length === olds.length && final.every(function (node, index) { return node === olds[index]; })) {
        return;
      }
      final.forEach(function (node, index) {
        if (container.children[index] !== node) { container.insertBefore(node, container.children[index] || null); }
      });
      while (container.children.length > final.length) { container.removeChild(container.lastElementChild); }
      state.held = state.held || heldBefore;
    }

    // A part in use that changed stays as it is, with a notice and a button that applies the change.
    function hold(part, neu, state) {
      state.held = true;
      part.livePending = neu;  // the newest version (null: the page no longer has this part)
      var notice = noticeOf(part);
      if (notice) { return; }
      state.noticed += 1;
      notice = document.createElement("p");
      notice.className = "notice live-changed";
      notice.appendChild(document.createElement("strong")).textContent = gettext("Changed");
      notice.appendChild(document.createTextNode(" " + (neu ? gettext("since you started filling this in —") :
        gettext("since you started filling this in: the page no longer offers it —")) + " "));
      var button = notice.appendChild(document.createElement("button"));
      button.type = "button";
      button.textContent = gettext("Review the change");
      notice.appendChild(document.createTextNode(" " + gettext("(what you typed is kept).")));
      button.addEventListener("click", function () { review(part); });
      var summary = part.querySelector(":scope > summary, :scope > h2, :scope > h3");
      part.insertBefore(notice, summary ? summary.nextSibling : part.firstChild);
    }

    // The reader asked for the change: the newest version takes the part's place, with what they
    // typed or chose carried into the same fields; text with no field left is shown, not dropped.
    function review(part) {
      var neu = part.livePending, parent = part.parentNode;
      if (!parent) { return; }
      var typed = typedIn(part);
      var replacement = null;
      if (neu) {
        replacement = adopt(neu);
        remember(replacement, neu);
      }
      var carried = null, leftover = [];
      typed.forEach(function (entry) {
        var target = replacement && fieldFor(replacement, entry);
        if (target) { carry(entry, target); carried = carried || target; } else if (entry.text) { leftover.push(entry.text); }
      });
      if (leftover.length) {
        var note = document.createElement("div");
        note.className = "notice live-kept";
        note.appendChild(document.createElement("p")).textContent = gettext("What you typed, which this part no longer asks for:");
        leftover.forEach(function (text) {
          var kept = note.appendChild(document.createElement("textarea"));
          kept.readOnly = true;
          kept.rows = 2;
          kept.value = text;
          kept.setAttribute("aria-label", gettext("What you typed"));
        });
        if (replacement) { replacement.appendChild(note); } else { replacement = note; }
      }
      if (replacement) {
        if (part.tagName === "DETAILS" && part.open) { replacement.open = true; }
        if (carried) {
          for (var up = carried.parentElement; up && up !== replacement.parentElement; up = up.parentElement) {
            if (up.tagName === "DETAILS") { up.open = true; }
          }
        }
        parent.replaceChild(replacement, part);
      } else {
        parent.removeChild(part);
      }
      var focus = carried || (replacement && (replacement.querySelector("textarea, input:not([type=hidden]), select, " +
        FOCUSABLE) || null));
      if (focus) { focus.focus(); }
      announce(typed.length ? gettext("The change is shown; what you typed is kept.") : gettext("The change is shown."));
      retryAt = 0;
    }
  }

  function remember(part, pristine) {
    if (!source) { return; }
    source.set(part, signature(pristine));
    if (pristine.hasAttribute("data-live-parts")) {
      for (var i = 0; i < pristine.children.length && i < part.children.length; i += 1) {
        remember(part.children[i], pristine.children[i]);
      }
    }
  }

  function sourceOf(part) { return source && source.has(part) ? source.get(part) : signature(part); }

  // A held part that the server draws as it was again needs no review any more.
  function settle(part) {
    var notice = noticeOf(part);
    if (notice) { notice.parentNode.removeChild(notice); }
    part.livePending = undefined;
  }

  function noticeOf(part) { return part.querySelector(".live-changed"); }

  function sameAttributes(old, neu) {
    Array.prototype.slice.call(old.attributes).forEach(function (attribute) {
      if (!neu.hasAttribute(attribute.name)) { old.removeAttribute(attribute.name); }
    });
    Array.prototype.forEach.call(neu.attributes, function (attribute) {
      if (old.getAttribute(attribute.name) !== attribute.value) { old.setAttribute(attribute.name, attribute.value); }
    });
  }

  function fields(element) {
    return Array.prototype.filter.call(element.querySelectorAll("input, select, textarea"), function (field) {
      return field.type !== "hidden" && !field.closest(".live-changed, .live-kept");
    });
  }

  function changedField(field) {
    return field.type === "file" ? field.files.length > 0 :
      (field.type === "checkbox" || field.type === "radio") ? field.checked !== field.defaultChecked :
      field.tagName === "SELECT" ? selectChanged(field) :
      field.value !== field.defaultValue;
  }

  // What the reader typed or chose in a part: the fields they changed.
  function typedIn(part) {
    return fields(part).filter(changedField).map(function (field) {
      return {
        name: field.name, type: field.type, value: field.value, checked: field.checked, files: field.files,
        chosen: field.tagName === "SELECT" ? Array.prototype.filter.call(field.options, function (o) { return o.selected; })
          .map(function (o) { return o.value; }) : null,
        text: (field.tagName === "TEXTAREA" || /^(text|search|email|url|number)$/.test(field.type)) ? field.value : ""
      };
    });
  }

  function fieldFor(part, entry) {
    if (!entry.name) { return null; }
    return fields(part).filter(function (field) {
      return field.name === entry.name && field.type === entry.type &&
        (entry.type !== "checkbox" && entry.type !== "radio" || field.value === entry.value);
    })[0] || null;
  }

  function carry(entry, field) {
    if (entry.type === "checkbox" || entry.type === "radio") { field.checked = entry.checked; return; }
    if (entry.type === "file") {
      try { field.files = entry.files; } catch (ignore) { /* an older browser: the file is chosen again */ }
      return;
    }
    if (entry.chosen) {
      Array.prototype.forEach.call(field.options, function (o) { o.selected = entry.chosen.indexOf(o.value) >= 0; });
      return;
    }
    field.value = entry.value;
  }

  var FOCUSABLE = "a, button, [tabindex]";

  function keyed(parts) {
    var seen = {};
    return parts.map(function (part) {
      var heading = part.querySelector("h1, h2, h3");
      var key = part.id || part.tagName + "." + part.className + ":" + (heading ? heading.textContent.trim() : "");
      seen[key] = (seen[key] || 0) + 1;
      return key + "#" + seen[key];
    });
  }

  function adopt(node) { return document.importNode(node, true); }

  // The same content rendered twice differs only in the CSRF token's mask.
  function signature(element) {
    return element.outerHTML.replace(/name="csrfmiddlewaretoken" value="[^"]*"/g, "");
  }

  function inUse(element) {
    var active = document.activeElement;
    if (active && element.contains(active) && active.matches("input, select, textarea")) { return true; }
    if (fields(element).some(changedField)) { return true; }
    var opened = element.tagName === "DETAILS" ? [element] : [];
    opened = opened.concat(Array.prototype.slice.call(element.querySelectorAll("details")));
    return opened.some(function (details) { return details.open && details.liveOpened && fields(details).length > 0; });
  }

  function selectChanged(select) {
    if (select.multiple) {
      return Array.prototype.some.call(select.options, function (o) { return o.selected !== o.defaultSelected; });
    }
    var initial = 0;  // a single select without a default shows its first option
    for (var i = 0; i < select.options.length; i += 1) { if (select.options[i].defaultSelected) { initial = i; } }
    return select.selectedIndex !== initial;
  }

  function rotateAll() {
    Array.prototype.forEach.call(document.querySelectorAll("[data-rotate][id]"), function (box) {
      var state = rotation[box.id];
      if (!state) {
        state = rotation[box.id] = { index: 0 };
        var seconds = Number(box.getAttribute("data-rotate")) || 12;
        setInterval(function () {
          var current = document.getElementById(box.id);
          if (current && current.children.length) {
            state.index = (state.index + 1) % current.children.length;
            show(current, state.index);
          }
        }, seconds * 1000);
      }
      if (box.children.length) { state.index = Math.min(state.index, box.children.length - 1); }
      show(box, state.index);
    });
  }

  function show(box, index) {
    Array.prototype.forEach.call(box.children, function (item, position) { item.hidden = position !== index; });
  }
}());
