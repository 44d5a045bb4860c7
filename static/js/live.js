/* Pages that update themselves (docs/live-pages.md).

   The element with data-live names a revision endpoint and the revision the page was rendered at.
   About once a second the script asks the endpoint with If-None-Match: 304 while nothing changed.
   On a new revision it fetches the page again (the same view, so the same permissions) and replaces
   each top-level child of the data-live element that changed, except a part the reader is using
   (a form with something typed or chosen, or a focused field): that part waits until it is free,
   so nothing entered is lost. Focus on a link or button in a replaced part moves to the same place in
   the new part. Changes are announced politely to screen readers.
   A [data-rotate="seconds"] element shows its children one at a time (the venue screen). */
(function () {
  "use strict";
  // Rotation state lives here, by the box's id, so a box replaced by an update keeps its place.
  var rotation = {};
  var root = document.querySelector("[data-live]");
  if (root) { follow(root); }
  rotateAll();

  function follow(root) {
    var url = root.getAttribute("data-live");
    var shown = root.getAttribute("data-live-revision");  // what the page shows
    var latest = shown;                                    // what the server has
    var period = 1000, failures = 0, timer = null;
    var retryAt = 0;  // while a part in use holds an update back, fetch the page again only now and then
    var status = document.createElement("div");
    status.setAttribute("role", "status");
    status.setAttribute("aria-live", "polite");
    status.className = "live-status";
    status.style.cssText = "position:absolute;width:1px;height:1px;margin:-1px;overflow:hidden;" +
      "clip:rect(0 0 0 0);white-space:nowrap;border:0;padding:0";
    document.body.appendChild(status);

    function schedule(delay) {
      clearTimeout(timer);
      if (!document.hidden) { timer = setTimeout(poll, delay); }
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
                if (error && error.message === "stop") { return; }
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
          if (done) { shown = fresh.getAttribute("data-live-revision") || wanted; } else { retryAt = Date.now() + 5000; }
        });
    }

    document.addEventListener("visibilitychange", function () {
      if (!document.hidden) { schedule(0); } else { clearTimeout(timer); }
    });
    schedule(period);

    // Parts are matched by a key (their id, else their tag and heading), so a part that appears or
    // goes away leaves the others in place; a part in use stays even when the new page drops it.
    function swap(root, fresh, clock) {
      var olds = Array.prototype.slice.call(root.children);
      var byKey = {};
      keyed(olds).forEach(function (key, index) { byKey[key] = olds[index]; });
      var active = document.activeElement, focusedPart = null, focusedPlace = -1;  // the new part, the place in it
      var held = false, changed = 0, kept = [];
      var final = keyed(Array.prototype.slice.call(fresh.children)).map(function (key, index) {
        var neu = fresh.children[index], old = byKey[key];
        if (old) {
          kept.push(old);
          if (signature(old) === signature(neu)) { return old; }
          if (inUse(old)) { held = true; return old; }
        }
        changed += 1;
        var part = adopt(neu);
        if (old && active && old.contains(active)) {
          focusedPart = part;
          focusedPlace = Array.prototype.indexOf.call(old.querySelectorAll(FOCUSABLE), active);
        }
        return part;
      });
      olds.forEach(function (old, index) {  // a part the new page drops, kept while in use
        if (kept.indexOf(old) >= 0 || !inUse(old)) { return; }
        held = true;
        var before = index > 0 ? final.indexOf(olds[index - 1]) : -1;
        final.splice(before + 1, 0, old);
      });
      if (!changed && final.length === olds.length) { return !held; }
      var scroll = window.scrollY;
      final.forEach(function (node, index) {
        if (root.children[index] !== node) { root.insertBefore(node, root.children[index] || null); }
      });
      while (root.children.length > final.length) { root.removeChild(root.lastElementChild); }
      if (focusedPart !== null && focusedPlace >= 0) {
        var target = focusedPart.querySelectorAll(FOCUSABLE)[focusedPlace];
        if (target) { target.focus({ preventScroll: true }); }
      }
      window.scrollTo(window.scrollX, scroll);
      rotateAll();
      // The time as the page writes it (the event's zone, named), not the browser's zone.
      status.textContent = "Updated at " + (clock || new Date().toLocaleTimeString()) +
        (held ? "; the form you are filling in is kept as it is." : ".");
      return !held;
    }
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
    var fields = element.querySelectorAll("input, select, textarea");
    for (var i = 0; i < fields.length; i += 1) {
      var field = fields[i];
      if (field.type === "hidden") { continue; }
      if (field.type === "file" ? field.files.length :
          (field.type === "checkbox" || field.type === "radio") ? field.checked !== field.defaultChecked :
          field.tagName === "SELECT" ? selectChanged(field) :
          field.value !== field.defaultValue) { return true; }
    }
    return false;
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
