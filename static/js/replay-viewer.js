// Draws a WARLINE battlefield as SVG from the frames the server computed with the rules engine
// (terrain, ramparts, stacks, facings), lists the moves in words, and steps through them with the
// named buttons, the arrow keys, the slider or a click in the move list.
(function () {
  "use strict";
  // The words in the page's language: Django's JavaScript catalog (/jsi18n/, loaded before this script)
  // defines gettext and interpolate; without it the words stay English.
  const gettext = window.gettext || ((text) => text);
  const interpolate = window.interpolate || ((format, values) => format.replace(/%\((\w+)\)s/g, (all, name) => values[name]));
  const say = (format, values) => interpolate(format, values, true);  // format: a gettext("…") call, which makemessages finds
  const data = JSON.parse(document.getElementById("replay-data").textContent);
  if (!data.board || data.frames.length === 0) { return; }
  const svg = document.getElementById("battlefield");
  const slider = document.getElementById("turn-slider");
  const NS = "http://www.w3.org/2000/svg";
  const CELL = 64, LEFT = 22, BOTTOM = 22, LABEL_ROOM = 14;
  const TOKEN_MARK = { vigor: "V", stun: "St", sacrifice: "Sa" };
  const ARROW = { N: [0, -1], S: [0, 1], E: [1, 0], W: [-1, 0] };
  const FACING_WORDS = { N: gettext("north"), E: gettext("east"), S: gettext("south"), W: gettext("west") };
  const TERRAIN_MARK = {
    mountain: "Mtn", hills: "Hil", valley: "Val", forest: "For", marsh: "Msh", waterbody: "Wat",
    chasm: "Chm", ice: "Ice", crag: "Crg", cliffside: "Clf", populace: "Pop", stronghold: "Str",
  };
  const width = data.board.width, height = data.board.height;
  const last = data.frames.length - 1;
  const names = { p1: data.generals.p1.name, p2: data.generals.p2.name };
  svg.setAttribute("viewBox", `0 0 ${LEFT + width * CELL + 2} ${height * CELL + BOTTOM}`);

  function el(name, attrs, text) {
    const node = document.createElementNS(NS, name);
    for (const [key, value] of Object.entries(attrs)) { node.setAttribute(key, value); }
    if (text !== undefined) { node.textContent = text; }
    return node;
  }
  function html(name, attrs, text) {
    const node = document.createElement(name);
    for (const [key, value] of Object.entries(attrs || {})) { node.setAttribute(key, value); }
    if (text !== undefined) { node.textContent = text; }
    return node;
  }
  function zoneName(column, row) { return String.fromCharCode(97 + column) + row; }
  function position(zone) {  // row 1 (Player-1's home) at the bottom
    const column = zone.charCodeAt(0) - 97, row = parseInt(zone.slice(1), 10);
    return [LEFT + column * CELL, (height - row) * CELL];
  }
  function stepTitle(index) {
    const frame = data.frames[index];
    return frame.turn === 0 ? gettext("Battle Formation") : say(gettext("Turn %(turn)s · %(name)s"), { turn: frame.turn, name: names[frame.by] });
  }

  // ---- The board --------------------------------------------------------------------------------
  function drawGround(frame) {
    for (let c = 0; c < width; c++) {
      svg.appendChild(el("text", { x: LEFT + c * CELL + CELL / 2, y: height * CELL + 16, class: "coord" },
        String.fromCharCode(97 + c)));
    }
    for (let r = 1; r <= height; r++) {
      svg.appendChild(el("text", { x: LEFT / 2, y: (height - r) * CELL + CELL / 2 + 5, class: "coord" }, String(r)));
      for (let c = 0; c < width; c++) {
        const zone = zoneName(c, r), [x, y] = position(zone);
        const kind = frame.terrain[zone];
        const rect = el("rect", { x, y, width: CELL, height: CELL, class: `zone terrain-${kind || "flatland"}` });
        rect.appendChild(el("title", {}, `${zone}: ${kind || "flatland"}`));
        svg.appendChild(rect);
        const holder = kind && data.board.control[zone];
        if (holder) { svg.appendChild(el("rect", { x, y, width: CELL, height: 5, class: `control ${holder}` })); }
      }
    }
  }

  function drawRamparts(zone, content) {
    if (!content.ramparts.length) { return; }
    const [x, y] = position(zone);
    const top = content.ramparts[content.ramparts.length - 1];
    const rect = el("rect", { x: x + 5, y: y + 5, width: CELL - 10, height: CELL - 10, class: `rampart ${top}` });
    rect.appendChild(el("title", {}, say(gettext("Rampart of %(name)s on %(zone)s"), { name: names[top], zone }) +
      (content.ramparts.length > 1 ? " " + say(gettext("(%(count)s stacked)"), { count: content.ramparts.length }) : "")));
    svg.appendChild(rect);
    if (content.ramparts.length > 1) {
      svg.appendChild(el("text", { x: x + CELL - 4, y: y + CELL - 4, class: "rampart-count" }, `×${content.ramparts.length}`));
    }
  }

  function discLayout(count) {  // radius, Arms font size, and each centre, bottom of the stack first
    // Each facing pointer reaches r + 7 beyond its centre: the lowest ones stop above the id label.
    if (count === 1) { return { r: 17, font: 22, centres: [[CELL / 2 + 1, CELL - LABEL_ROOM - 24]] }; }
    const r = count === 2 ? 14 : count === 3 ? 12 : 10;
    const from = [r + 3, CELL - LABEL_ROOM - r - 7], to = [CELL - r - 3, r + 6];
    const centres = [];
    for (let i = 0; i < count; i++) {
      const t = i / (count - 1);
      centres.push([from[0] + (to[0] - from[0]) * t, from[1] + (to[1] - from[1]) * t]);
    }
    return { r, font: count <= 3 ? 17 : 13, centres };
  }

  function drawStack(frame, zone, stack) {
    const [x, y] = position(zone);
    const layout = discLayout(stack.length);
    stack.forEach((ident, level) => {
      const b = frame.battalions[ident];
      const [cx, cy] = layout.centres[level];
      const r = layout.r;
      const group = el("g", { class: `battalion ${b.general}`, transform: `translate(${x},${y})` });
      const [dx, dy] = ARROW[b.facing], [px, py] = [-dy, dx];
      const tip = [cx + dx * (r + 7), cy + dy * (r + 7)], base = [cx + dx * (r - 3), cy + dy * (r - 3)];
      group.appendChild(el("path", { class: "facing", d: `M${tip[0]} ${tip[1]} L${base[0] + px * 7} ${base[1] + py * 7} ` +
        `L${base[0] - px * 7} ${base[1] - py * 7} Z` }));
      group.appendChild(el("circle", { cx, cy, r }));
      group.appendChild(el("text", { x: cx, y: cy + layout.font * 0.36, class: "arms", "font-size": layout.font }, String(b.arms)));
      let where = say(gettext("on %(zone)s"), { zone });
      if (stack.length > 1) {
        where = say(gettext("number %(level)s of %(count)s from the bottom of the stack on %(zone)s"), { level: level + 1, count: stack.length, zone });
      }
      group.appendChild(el("title", {}, say(gettext("%(ident)s (%(name)s): Arms %(arms)s, facing %(facing)s, %(where)s"),
        { ident, name: names[b.general], arms: b.arms, facing: FACING_WORDS[b.facing], where }) +
        (b.tokens.length ? `; ${b.tokens.join(", ")}` : "")));
      svg.appendChild(group);
    });
    let label = stack.join("·");
    if (label.length > 9) { label = `${stack[stack.length - 1]} +${stack.length - 1}`; }
    const text = el("text", { x: x + CELL / 2, y: y + CELL - 4, class: "ident" }, label);
    if (label.length > 6) {  // squeezed into the zone rather than spilling into the next one
      text.setAttribute("textLength", CELL - 6);
      text.setAttribute("lengthAdjust", "spacingAndGlyphs");
    }
    svg.appendChild(text);
  }

  function drawMarks(frame) {  // on top of the battalions and outlines, so that nothing hides them
    for (const [zone, kind] of Object.entries(frame.terrain)) {
      const [x, y] = position(zone);
      svg.appendChild(el("text", { x: x + 5, y: y + 15, class: `terrain-mark terrain-mark-${kind}` }, TERRAIN_MARK[kind] || kind));
    }
    for (const [zone, content] of Object.entries(frame.zones)) {
      const marks = content.stack.flatMap((ident) => frame.battalions[ident].tokens.map((t) => TOKEN_MARK[t] || t));
      if (marks.length) {
        const [x, y] = position(zone);
        svg.appendChild(el("text", { x: x + CELL - 5, y: y + 15, class: "token" }, marks.join(" ")));
      }
    }
  }

  function drawChanged(frame) {
    for (const zone of frame.changed) {
      const [x, y] = position(zone);
      svg.appendChild(el("rect", { x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4, class: "changed-halo" }));
      svg.appendChild(el("rect", { x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4, class: "changed" }));
    }
  }

  function draw(frame) {
    const title = document.getElementById("battlefield-title");
    svg.replaceChildren(title);
    title.textContent = frame.turn === 0 ? gettext("The battlefield after Battle Formation") : say(gettext("The battlefield after turn %(turn)s"), { turn: frame.turn });
    drawGround(frame);
    for (const [zone, content] of Object.entries(frame.zones)) { drawRamparts(zone, content); }
    for (const [zone, content] of Object.entries(frame.zones)) {
      if (content.stack.length) { drawStack(frame, zone, content.stack); }
    }
    drawChanged(frame);
    drawMarks(frame);
  }

  // ---- Text beside the board --------------------------------------------------------------------
  function describeSides(frame) {
    const stacks = document.getElementById("stacks");
    const tall = Object.entries(frame.zones).filter(([, content]) => content.stack.length > 1);
    stacks.replaceChildren(...tall.map(([zone, content]) => html("li", {},
      say(gettext("Stack on %(zone)s, bottom to top:"), { zone }) + " " +
      content.stack.map((ident) => say(gettext("%(ident)s (%(name)s, Arms %(arms)s)"),
        { ident, name: names[frame.battalions[ident].general], arms: frame.battalions[ident].arms })).join(", "))));
    stacks.hidden = tall.length === 0;
    const lines = ["p1", "p2"].map((side) => {
      const enemy = side === "p1" ? "p2" : "p1";
      const own = Object.entries(frame.battalions).filter(([, b]) => b.general === side && b.place === "battlefield");
      const held = Object.entries(frame.battalions).filter(([, b]) => b.general === enemy && b.place === "prison");
      const dead = Object.entries(frame.battalions).filter(([, b]) => b.general === enemy && b.place === "graveyard");
      const arms = own.reduce((sum, [, b]) => sum + b.arms, 0);
      const li = html("li", { class: `side ${side}` });
      li.appendChild(html("strong", {}, names[side]));
      li.appendChild(document.createTextNode(": " + say(gettext("%(count)s on the battlefield (Arms %(arms)s); in the prison: %(held)s; in the graveyard: %(dead)s"), {
        count: own.length, arms,
        held: held.map(([i, b]) => say(gettext("%(ident)s (Arms %(arms)s)"), { ident: i, arms: b.arms })).join(", ") || gettext("none"),
        dead: dead.map(([i]) => i).join(", ") || gettext("none"),
      })));
      return li;
    });
    document.getElementById("sides").replaceChildren(...lines);
  }

  function buildLegend() {
    const generals = document.getElementById("legend-generals");
    for (const side of ["p1", "p2"]) {
      const general = data.generals[side];
      const li = html("li", { class: `side ${side}` });
      const swatch = el("svg", { class: "swatch", viewBox: "0 0 24 24", "aria-hidden": "true" });
      swatch.appendChild(el("circle", { cx: 12, cy: 12, r: 9, class: `general-sample ${side}` }));
      li.appendChild(swatch);
      const text = html("span");
      text.appendChild(html("strong", {}, general.name));
      const home = side === "p1" ? gettext("row 1, at the bottom") : say(gettext("row %(row)s, at the top"), { row: height });
      text.appendChild(document.createTextNode(" — " + say(gettext("%(player)s, %(kingdom)s; home %(home)s"),
        { player: side === "p1" ? gettext("Player-1") : gettext("Player-2"), kingdom: general.kingdom, home })));
      li.appendChild(text);
      generals.appendChild(li);
    }
    const kinds = new Set();
    data.frames.forEach((frame) => Object.values(frame.terrain).forEach((kind) => kinds.add(kind)));
    const terrain = document.getElementById("legend-terrain");
    for (const kind of [...kinds].sort()) {
      const li = html("li");
      const swatch = el("svg", { class: "swatch", viewBox: "0 0 24 24", "aria-hidden": "true" });
      swatch.appendChild(el("rect", { x: 1, y: 1, width: 22, height: 22, class: `zone terrain-${kind}` }));
      li.appendChild(swatch);
      const text = html("span");
      text.appendChild(html("strong", {}, TERRAIN_MARK[kind] || kind));
      text.appendChild(document.createTextNode(` ${kind}`));
      li.appendChild(text);
      terrain.appendChild(li);
    }
    if (Object.keys(data.board.control).length) {
      terrain.appendChild(html("li", {}, "A coloured strip along the top of a populace or stronghold: the general who controls it."));
    }
    terrain.hidden = terrain.children.length === 0;
  }

  const moveList = document.getElementById("move-list");
  const moveItems = data.frames.map((frame, index) => {
    const li = html("li", { class: frame.by ? `step ${frame.by}` : "step" });
    const button = html("button", { type: "button", class: "step-button" }, stepTitle(index));
    button.addEventListener("click", () => go(index));
    li.appendChild(button);
    for (const words of frame.words) {
      li.appendChild(html("p", { class: "step-words" }, words.charAt(0).toUpperCase() + words.slice(1)));
    }
    if (frame.changes.length) { li.appendChild(html("p", { class: "step-changes" }, frame.changes.join("; "))); }
    moveList.appendChild(li);
    return li;
  });
  if (data.error && data.error.turn) {
    const li = html("li", { class: `step illegal ${data.error.by || ""}`, id: "illegal-move" });
    li.appendChild(html("strong", {}, data.error.by ? say(gettext("Turn %(turn)s · %(name)s: not legal"), { turn: data.error.turn, name: names[data.error.by] })
      : say(gettext("Turn %(turn)s: not legal"), { turn: data.error.turn })));
    li.appendChild(html("p", { class: "step-words" }, data.error.message));
    moveList.appendChild(li);
  }

  function showInList(index) {
    const item = moveItems[index];
    const top = item.offsetTop - moveList.offsetTop, bottom = top + item.offsetHeight;
    if (top < moveList.scrollTop) { moveList.scrollTop = top; }
    else if (bottom > moveList.scrollTop + moveList.clientHeight) { moveList.scrollTop = bottom - moveList.clientHeight; }
  }

  // ---- Stepping -----------------------------------------------------------------------------------
  let current = 0;
  function go(index) {
    current = Math.max(0, Math.min(last, index));
    const frame = data.frames[current];
    draw(frame);
    describeSides(frame);
    moveItems.forEach((li, i) => {
      li.classList.toggle("current", i === current);
      const button = li.querySelector("button");
      if (i === current) { button.setAttribute("aria-current", "step"); } else { button.removeAttribute("aria-current"); }
    });
    showInList(current);
    const label = frame.turn === 0 ? gettext("After Battle Formation") : say(gettext("After turn %(turn)s"), { turn: frame.turn });
    document.getElementById("turn-label").textContent = label;
    document.getElementById("turn-of").textContent = frame.turn === 0 ? "." : " " + say(gettext("of %(turns)s."), { turns: data.frames[last].turn });
    document.getElementById("turn-words").textContent = frame.turn === 0
      ? frame.changes.join(" ") : `${names[frame.by]}: ${frame.words.join(" ")}`;
    document.getElementById("turn-changes").textContent = frame.turn === 0 || !frame.changes.length
      ? "" : say(gettext("Changed: %(changes)s."), { changes: frame.changes.join("; ") });
    slider.value = current;
    slider.setAttribute("aria-valuetext", label);
    // aria-disabled, not disabled: the button keeps the keyboard focus at either end.
    for (const id of ["first", "previous"]) { document.getElementById(id).setAttribute("aria-disabled", String(current === 0)); }
    for (const id of ["next", "last"]) { document.getElementById(id).setAttribute("aria-disabled", String(current === last)); }
    const failing = document.getElementById("illegal-step");
    if (failing) { failing.classList.toggle("current", current === last); }
  }

  slider.max = last;
  slider.addEventListener("input", () => go(parseInt(slider.value, 10)));
  document.getElementById("first").addEventListener("click", () => go(0));
  document.getElementById("previous").addEventListener("click", () => go(current - 1));
  document.getElementById("next").addEventListener("click", () => go(current + 1));
  document.getElementById("last").addEventListener("click", () => go(last));
  const STEPS = { ArrowLeft: () => current - 1, ArrowRight: () => current + 1, Home: () => 0, End: () => last };
  document.addEventListener("keydown", (event) => {
    const target = event.target;
    const typing = target.isContentEditable || ["TEXTAREA", "SELECT"].includes(target.tagName) ||
      (target.tagName === "INPUT" && target !== slider);
    if (!STEPS[event.key] || typing || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) { return; }
    // The slider would also move by itself on these keys: one step per key press, ours.
    event.preventDefault();
    go(STEPS[event.key]());
  });
  buildLegend();
  go(data.error ? last : 0);
}());
