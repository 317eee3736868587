"""The site's stylesheet and script, served as files (`/static/site.css`, `/static/site.js`):
the content security policy allows no inline style or script.

The script does three things, each only on its page: the live page follows its game's events
(Server-Sent Events) and puts each new version in place; the replay steps with the ← and → keys,
the buttons, the slider and the moves' links, fetching each step's part of the page; the review
opens the decision whose mark was clicked.
"""

from __future__ import annotations

CSS = """
:root { color-scheme: dark; --bg: #182432; --panel: #243140; --text: #eef2f5; --dim: #9faebd;
  --accent: #ffc83d; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--text);
  font: 16px/1.45 system-ui, -apple-system, "Segoe UI", "Noto Sans", "Noto Sans Hebrew", sans-serif; }
header { padding: .5rem 1rem; background: var(--panel); }
header .site { font-weight: 700; color: var(--accent); }
main { padding: .5rem 1rem 2rem; max-width: 1200px; margin: 0 auto; }
h1 { font-size: 1.4rem; margin: .5rem 0; }
h2 { font-size: 1.1rem; margin: 1rem 0 .4rem; }
h3 { font-size: 1rem; margin: .8rem 0 .3rem; color: var(--dim); }
a { color: #8cc8ff; }
.phase, .turn { margin: .2rem 0; }
.turn { font-weight: 700; color: var(--accent); }
.cols { display: grid; grid-template-columns: minmax(0, 1fr); gap: 1rem; }
@media (min-width: 900px) { .cols { grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); } }
figure.boardbox { margin: 0; }
svg.board { width: 100%; height: auto; max-height: 80vh; display: block; }
svg.board .lbl { font: 600 4.2px sans-serif; fill: #fff; fill-opacity: .8; text-anchor: middle; }
ul.seats, ul.story, section.moves ul, section.moves ol, ul.games { padding-inline-start: 0;
  list-style: none; margin: 0; }
li.seat { padding: .35rem .5rem; border-radius: .4rem; background: var(--panel); margin: .3rem 0; }
li.seat.current { outline: 2px solid var(--accent); }
li.seat .sw, .sw { display: inline-block; width: .9em; height: .9em; border-radius: 50%;
  margin-inline-end: .4em; vertical-align: -.1em; }
.sw.s0 { background: #d55e00; } .sw.s1 { background: #0072b2; }
.sw.s2 { background: #f0e442; } .sw.s3 { background: #cc79a7; }
li.seat .nums { display: block; color: var(--dim); }
ul.story li { padding: .2rem 0; border-bottom: 1px solid #2f3e4f; }
code { background: #0f1822; padding: 0 .25em; border-radius: .2em; }
.note { color: var(--dim); font-size: .9rem; }
.controls { display: flex; gap: .5rem; align-items: center; margin: .5rem 0; }
.controls input { flex: 1; min-width: 0; }
.controls button { font: inherit; padding: .4rem .8rem; border-radius: .4rem; border: 0;
  background: var(--panel); color: var(--text); }
section.moves a { display: block; padding: .15rem .3rem; text-decoration: none; color: var(--text);
  border-radius: .3rem; }
section.moves a.now { background: #3a4a5c; }
svg.chart { width: 100%; max-width: 640px; height: auto; display: block; background: var(--panel);
  border-radius: .4rem; }
svg.chart text { font: 8px sans-serif; fill: #111; text-anchor: middle; font-weight: 700; }
svg.chart a.mark { cursor: pointer; }
details { background: var(--panel); border-radius: .4rem; padding: .4rem .6rem; margin: .5rem 0; }
details[open] { outline: 2px solid var(--accent); }
summary { cursor: pointer; font-weight: 700; }
table.board { border-collapse: collapse; width: 100%; max-width: 640px; }
table.board td, table.board th { padding: .3rem .5rem; text-align: start;
  border-bottom: 1px solid #2f3e4f; }
"""

JS = """
(function () {
  "use strict";
  var body = document.body;
  var kind = body.getAttribute("data-page");
  if (kind === "live") {
    var note = document.getElementById("note");
    var source = new EventSource(body.getAttribute("data-events"));
    source.onmessage = function (e) {
      var data = JSON.parse(e.data);
      var live = document.getElementById("live");
      if (Number(live.getAttribute("data-version")) >= data.version) { return; }
      var box = document.createElement("div");
      box.innerHTML = data.html;
      live.replaceWith(box.firstElementChild);
      note.classList.remove("lost");
    };
    source.onerror = function () { note.textContent = body.getAttribute("data-lost"); };
  }
  if (kind === "replay") {
    var last = Number(body.getAttribute("data-last"));
    var base = body.getAttribute("data-steps");
    var slider = document.getElementById("slider");
    var now = Number(slider.value);
    var asked = 0;
    var mark = function () {
      document.querySelectorAll("section.moves a.now").forEach(function (a) { a.classList.remove("now"); });
      var a = document.querySelector('section.moves a[data-step="' + now + '"]');
      if (a) { a.classList.add("now"); }
    };
    var go = function (step) {
      step = Math.max(0, Math.min(last, step));
      now = step;
      slider.value = String(step);
      mark();
      var ticket = ++asked;
      fetch(base + step).then(function (r) { return r.text(); }).then(function (html) {
        if (ticket !== asked) { return; }
        var box = document.createElement("div");
        box.innerHTML = html;
        document.getElementById("step").replaceWith(box.firstElementChild);
        history.replaceState(null, "", "#s" + step);
      });
    };
    document.getElementById("prev").onclick = function () { go(now - 1); };
    document.getElementById("next").onclick = function () { go(now + 1); };
    slider.oninput = function () { go(Number(slider.value)); };
    document.addEventListener("keydown", function (e) {
      if (e.target && e.target.tagName === "INPUT" && e.target.type !== "range") { return; }
      var rtl = document.documentElement.dir === "rtl";
      if (e.key === "ArrowLeft") { go(now + (rtl ? 1 : -1)); e.preventDefault(); }
      if (e.key === "ArrowRight") { go(now + (rtl ? -1 : 1)); e.preventDefault(); }
    });
    document.querySelectorAll("section.moves a[data-step]").forEach(function (a) {
      a.onclick = function (e) { e.preventDefault(); go(Number(a.getAttribute("data-step"))); };
    });
    var m = /^#s(\\d+)$/.exec(location.hash);
    if (m && Number(m[1]) !== now) { go(Number(m[1])); } else { mark(); }
  }
  if (kind === "review") {
    var open = function (id) {
      var d = document.getElementById(id);
      if (!d) { return; }
      document.querySelectorAll("details[open]").forEach(function (o) { if (o !== d) { o.open = false; } });
      d.open = true;
      d.scrollIntoView({block: "nearest"});
    };
    document.querySelectorAll("a.mark").forEach(function (a) {
      a.addEventListener("click", function (e) {
        e.preventDefault();
        var id = "d" + a.getAttribute("data-decision");
        history.replaceState(null, "", "#" + id);
        open(id);
      });
    });
    if (location.hash) { open(location.hash.slice(1)); }
  }
})();
"""
