/* Result forms whose fields follow the result kind (progressive enhancement).

   A form's kind menu carries data-result-kind; each field used by some kinds only carries
   data-kinds="victory forfeit …". This script hides the field (its .field wrapper) for the other
   kinds and disables it, so a hidden value is not sent: a Stalemate never goes out with a winner
   chosen earlier. Without JavaScript every field shows and the server refuses a field that does not
   belong to the chosen kind, with a sentence. Forms replaced by a live update are handled too. */
(function () {
  "use strict";

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
}());
