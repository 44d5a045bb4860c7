/* Result forms whose fields follow the result kind (progressive enhancement).

   A form's kind menu carries data-result-kind; each field used by some kinds only carries
   data-kinds="victory forfeit …". This script hides the field (its .field wrapper) for the other
   kinds and disables it, so a hidden value is not sent: a Stalemate never goes out with a winner
   chosen earlier. Without JavaScript every field shows and the server refuses a field that does not
   belong to the chosen kind, with a sentence. Forms replaced by a live update are handled too.

   A refused form's error summary (templates/tournaments/partials/form.html) takes the focus when the
   page opens, so it is in view and read out on a phone too; its links move the focus to their field.
   A page whose refused form has no script of its own loads this one with the summary: it runs once. */
(function () {
  "use strict";
  if (window.warlineResultForm) { return; }
  window.warlineResultForm = true;

  function follow(kindMenu) {
    var form = kindMenu.form;
    if (!form) { return; }
    var kind = kindMenu.value;
    Array.prototype.forEach.call(form.querySelectorAll("[data-kinds]"), function (input) {
      var used = input.getAttribute("data-kinds").split(/\s+/).indexOf(kind) >= 0;
      var wrapper = input.closest(".field") || input;
      wrapper.hidden = !used;
      wrapper.style.display = used ? "" : "none";  // .form .field sets a display of its own
      input.disabled = !used;
    });
  }

  function followAll(root) {
    Array.prototype.forEach.call((root || document).querySelectorAll("select[data-result-kind]"), follow);
  }

  document.addEventListener("change", function (event) {
    if (event.target.matches && event.target.matches("select[data-result-kind]")) { follow(event.target); }
  });
  // The browser may restore a form's values when the page comes back from its cache.
  window.addEventListener("pageshow", function () { followAll(); });
  if (window.MutationObserver) {  // parts of a live page are replaced by fresh copies (static/js/live.js)
    new MutationObserver(function (changes) {
      changes.forEach(function (change) {
        Array.prototype.forEach.call(change.addedNodes, function (node) {
          if (node.nodeType === 1) { followAll(node.matches("select[data-result-kind]") ? node.parentNode : node); }
        });
      });
    }).observe(document.body, { childList: true, subtree: true });
  }
  followAll();

  var summary = document.querySelector(".error-summary");
  if (summary) {
    summary.focus();
    summary.addEventListener("click", function (event) {
      var link = event.target.closest && event.target.closest("a[href^='#']");
      var field = link && document.getElementById(link.getAttribute("href").slice(1));
      if (field) {
        event.preventDefault();
        field.focus();
      }
    });
  }
}());
