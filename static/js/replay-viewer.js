// Draws a WARLINE battlefield as SVG from the frames the server computed with the rules engine,
// and steps through them with buttons, the arrow keys and a slider.
(function () {
  "use strict";
  const data = JSON.parse(document.getElementById("replay-data").textContent);
  const svg = document.getElementById("battlefield");
  const slider = document.getElementById("turn-slider");
  const label = document.getElementById("turn-label");
  const sides = document.getElementById("sides");
  const NS = "http://www.w3.org/2000/svg";
  const CELL = 64;
  const TOKEN_MARK = { vigor: "V", stun: "St", sacrifice: "Sa" };
  const ARROW = { N: [0, -1], S: [0, 1], E: [1, 0], W: [-1, 0] };
  if (!data.board || data.frames.length === 0) { return; }
  const width = data.board.width, height = data.board.height;
  svg.setAttribute("viewBox", `0 0 ${width * CELL + 24} ${height * CELL + 24}`);

  function el(name, attrs, text) {
    const node = document.createElementNS(NS, name);
    for (const [key, value] of Object.entries(attrs)) { node.setAttribute(key, value); }
    if (text !== undefined) { node.textContent = text; }
    return node;
  }
  function position(zone) {  // row 1 (Player-1's home) at the bottom
    const column = zone.charCodeAt(0) - 97, row = parseInt(zone.slice(1), 10);
    return [24 + column * CELL, (height - row) * CELL];
  }

  function draw(index) {
    const frame = data.frames[index];
    svg.replaceChildren();
    for (let c = 0; c < width; c++) {
      svg.appendChild(el("text", { x: 24 + c * CELL + CELL / 2, y: height * CELL + 18, class: "coord" },
        String.fromCharCode(97 + c)));
    }
    for (let r = 1; r <= height; r++) {
      svg.appendChild(el("text", { x: 10, y: (height - r) * CELL + CELL / 2 + 4, class: "coord" }, String(r)));
      for (let c = 0; c < width; c++) {
        const zone = String.fromCharCode(97 + c) + r;
        const [x, y] = position(zone);
        svg.appendChild(el("rect", { x, y, width: CELL, height: CELL, class: "zone" }));
      }
    }
    for (const [zone, content] of Object.entries(frame.zones)) {
      const [x, y] = position(zone);
      if (content.rampart) {
        svg.appendChild(el("rect", { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6,
          class: `rampart ${content.rampart}` }));
      }
      content.stack.forEach((ident, level) => {
        const b = frame.battalions[ident];
        const offset = level * 6;
        const group = el("g", { class: `battalion ${b.general}`, transform: `translate(${x + offset},${y - offset})` });
        group.appendChild(el("circle", { cx: CELL / 2, cy: CELL / 2, r: CELL / 2 - 10 }));
        const [dx, dy] = ARROW[b.facing];
        group.appendChild(el("line", { x1: CELL / 2, y1: CELL / 2, x2: CELL / 2 + dx * (CELL / 2 - 4),
          y2: CELL / 2 + dy * (CELL / 2 - 4), class: "facing" }));
        group.appendChild(el("text", { x: CELL / 2, y: CELL / 2 + 5, class: "arms" }, String(b.arms)));
        group.appendChild(el("text", { x: CELL / 2, y: CELL - 4, class: "ident" }, ident));
        if (b.tokens.length) {
          group.appendChild(el("text", { x: 4, y: 12, class: "token" },
            b.tokens.map((t) => TOKEN_MARK[t] || t).join(" ")));
        }
        const title = el("title", {}, `${ident}: Arms ${b.arms}, facing ${b.facing}` +
          (b.tokens.length ? `, ${b.tokens.join(", ")}` : ""));
        group.appendChild(title);
        svg.appendChild(group);
      });
    }
    const lines = [];
    for (const side of ["p1", "p2"]) {
      const enemy = side === "p1" ? "p2" : "p1";
      const held = Object.entries(frame.battalions).filter(([, b]) => b.general === enemy && b.place === "prison");
      const dead = Object.entries(frame.battalions).filter(([, b]) => b.general === enemy && b.place === "graveyard");
      const name = data.generals[side] ? data.generals[side].name : side;
      lines.push(`${name} (${side}) — prison: ${held.map(([i, b]) => `${i} (${b.arms})`).join(", ") || "empty"};` +
        ` graveyard: ${dead.map(([i]) => i).join(", ") || "empty"}`);
    }
    sides.replaceChildren(...lines.map((text) => { const li = document.createElement("li"); li.textContent = text; return li; }));
    label.textContent = frame.turn === 0 ? "After Battle Formation" : `After turn ${frame.turn}`;
    slider.value = index;
    const failing = document.getElementById("illegal-step");
    if (failing) { failing.classList.toggle("current", index === data.frames.length - 1); }
  }

  let current = 0;
  function go(index) { current = Math.max(0, Math.min(data.frames.length - 1, index)); draw(current); }
  slider.max = data.frames.length - 1;
  slider.addEventListener("input", () => go(parseInt(slider.value, 10)));
  document.getElementById("first").addEventListener("click", () => go(0));
  document.getElementById("previous").addEventListener("click", () => go(current - 1));
  document.getElementById("next").addEventListener("click", () => go(current + 1));
  document.getElementById("last").addEventListener("click", () => go(data.frames.length - 1));
  document.addEventListener("keydown", (event) => {
    if (event.key === "ArrowLeft") { go(current - 1); }
    if (event.key === "ArrowRight") { go(current + 1); }
    if (event.key === "Home") { go(0); }
    if (event.key === "End") { go(data.frames.length - 1); }
  });
  go(data.error ? data.frames.length - 1 : 0);
}());
