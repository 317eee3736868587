"""The pages of the web companion as HTML, built from what the services give (pure: no I/O).

Every page is built in the reader's language (`lang`, Hebrew right to left) from what a
spectator may see: the board from `render.model.view(viewer_seat=None)` (the engine's
observation of a spectator), the story from `bot.present.story` (each action as every seat may
know it), the seats' light, points and placed animals from the same view. Two positions that
differ only in what is hidden give the same bytes (tests/test_web.py).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING

import engine
from bot.present import expert_texts as xt
from bot.present import i18n, story, texts
from bot.present import player_texts as pt
from bot.present import review_texts as rt
from bot.present import web_texts as wt
from bot.present.animals import animal_name
from bot.present.replays import REPLAY_START, Replay
from bot.ratings import identity as ri
from bot.services.players import LeaderboardPage, Profile
from bot.services.reviews import PersonReview
from bot.services.seats import player_name, seat_names
from engine import GameState
from engine.expert.review import Decision
from render import alt, svg
from render import model as render_model
from render import palette as P
from translation import Number, Text, decimal, is_right_to_left, translate

if TYPE_CHECKING:  # a type only: presentation reads no storage
    from bot.storage import GameRow

#: Discord's markdown the story's lines carry: `notation` and **bold**.
_CODE = re.compile(r"`([^`]+)`")
_BOLD = re.compile(r"\*\*([^*]+)\*\*")


def t(text: str, lang: str) -> str:
    """A text in `lang`, escaped for HTML."""
    return escape(translate(text, lang))


def said(line: str, lang: str) -> str:
    """A story line in `lang`, escaped, its markdown as HTML."""
    html = escape(translate(line, lang))
    html = _CODE.sub(r'<code dir="ltr">\1</code>', html)
    for seat, swatch in enumerate(story.SEAT_SWATCH):  # the seat's colour, drawn by the page
        html = html.replace(swatch, f'<span class="sw s{seat}" aria-hidden="true"></span>')
    return _BOLD.sub(r"<b>\1</b>", html)


def _colour(seat: int) -> str:
    return "#{:02x}{:02x}{:02x}".format(*P.SEAT_COLOURS[seat])


def page(
    lang: str,
    title: str,
    body: str,
    *,
    kind: str,
    data: dict[str, str] | None = None,
) -> str:
    """A whole page: its language and direction, the stylesheet and script of the site (no
    inline script or style: the content security policy allows none), `data` for the script."""
    attrs = "".join(f' data-{k}="{escape(v)}"' for k, v in (data or {}).items())
    direction = "rtl" if is_right_to_left(lang) else "ltr"
    return (
        f'<!doctype html><html lang="{lang}" dir="{direction}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="referrer" content="no-referrer">'
        f"<title>{escape(title)} · {t(wt.SITE_NAME, lang)}</title>"
        '<link rel="stylesheet" href="/static/site.css"></head>'
        f'<body data-page="{kind}"{attrs}><header><span class="site">'
        f"{t(wt.SITE_NAME, lang)}</span></header><main><h1>{escape(title)}</h1>{body}</main>"
        '<script src="/static/site.js"></script></body></html>'
    )


def not_found(lang: str) -> str:
    return page(lang, translate(wt.SITE_NAME, lang), f"<p>{t(wt.NOT_FOUND, lang)}</p>", kind="none")


def failed(lang: str) -> str:
    """Our own bug's page: the bot's apology."""
    return page(
        lang, translate(wt.SITE_NAME, lang), f"<p>{t(texts.INTERNAL_ERROR, lang)}</p>", kind="none"
    )


def too_many(lang: str) -> str:
    return page(lang, translate(wt.SITE_NAME, lang), f"<p>{t(wt.TOO_MANY, lang)}</p>", kind="none")


# --- the board and the seats ---


def _names(game: GameRow, lang: str) -> list[str]:
    return [translate(name, lang) for name in seat_names(game)]


def board(
    game: GameRow, state: GameState, lang: str, highlight: Sequence[str] = ()
) -> tuple[str, render_model.View]:
    """The board of a position as a spectator sees it (SVG, its alt text as its title)."""
    names = _names(game, lang)
    v = render_model.view(state, highlight=highlight, names=names, lang=lang, drawn_names=False)
    return svg.board_svg(v, alt.text_of(v)), v


def _phase(state: GameState, lang: str) -> str:
    if state.is_over:
        return t(wt.GAME_OVER, lang)
    if state.phase == "setup":
        return t(wt.SETUP_LINE, lang)
    return t(
        wt.ROUND_LINE.format(
            round=int(state.round),
            rounds=state.config.last_round,
            revolution=int(state.revolution),
        ),
        lang,
    )


def seats_list(game: GameRow, v: render_model.View, lang: str) -> str:
    """Each seat: its colour, name, placed animal, light (lunar points) and points; the seat to
    play marked."""
    items = []
    for seat in v.seats:
        animal = ""
        if v.moon is not None and seat.index < len(v.moon.seats):
            shown = v.moon.seats[seat.index].animal
            if shown:
                animal = f' <span class="animal">({t(animal_name(shown), lang)})</span>'
        if v.moon is not None and not seat.is_cynthia:
            line = wt.SEAT_LINE_MOON.format(light=seat.light, lunar=seat.lunar, points=seat.score)
        else:
            line = wt.SEAT_LINE.format(light=seat.light, points=seat.score)
        current = " current" if v.current_seat == seat.index and v.phase != "over" else ""
        items.append(
            f'<li class="seat{current}"><span class="sw s{seat.index}"'
            f' aria-hidden="true"></span><b>{escape(seat.name)}</b>{animal}'
            f'<span class="nums">{t(line, lang)}</span></li>'
        )
    return f'<ul class="seats">{"".join(items)}</ul>'


def _turn_line(game: GameRow, state: GameState, lang: str) -> str:
    names = _names(game, lang)
    if state.is_over:
        winners = ", ".join(names[w] for w in engine.winners(state))
        text = wt.WINNER if len(engine.winners(state)) == 1 else wt.WINNERS
        return t(text.format(names=winners), lang)
    if state.current_seat is None:
        return ""
    return t(wt.TO_PLAY.format(player=names[state.current_seat]), lang)


@dataclass(frozen=True)
class LiveLinks:
    """Where the live page's links lead: the replay and review of a finished game."""

    replay: str | None = None
    review: str | None = None


def live_fragment(
    game: GameRow,
    state: GameState,
    turns: Sequence[story.Turn[story.Move]],
    lang: str,
    links: LiveLinks = LiveLinks(),
) -> str:
    """The part of the live page that changes with each play (replaced by the page's script)."""
    with i18n.speaking(lang):
        lines = story.lines_of(game, turns)
        heading = story.story_title(game, state)
    drawn, v = board(game, state, lang, story.changed_spaces(turns))
    told = "".join(f"<li>{said(line, lang)}</li>" for line in lines)
    if not told:
        told = f"<li>{t(wt.NOTHING_YET, lang)}</li>"
    nav = []
    if links.replay:
        nav.append(f'<a href="{escape(links.replay)}">{t(wt.REPLAY_LINK, lang)}</a>')
    if links.review:
        nav.append(f'<a href="{escape(links.review)}">{t(wt.REVIEW_LINK, lang)}</a>')
    return (
        f'<div id="live" data-version="{game.version}">'
        f'<p class="phase">{_phase(state, lang)}</p>'
        f'<p class="turn">{_turn_line(game, state, lang)}</p>'
        f'<div class="cols"><figure class="boardbox">{drawn}</figure><section>'
        f"<h2>{t(wt.SEATS, lang)}</h2>{seats_list(game, v, lang)}"
        f'<h2>{t(heading, lang)}</h2><ul class="story">{told}</ul>'
        f"{'<nav>' + ' · '.join(nav) + '</nav>' if nav else ''}</section></div></div>"
    )


def live_page(game: GameRow, fragment: str, events: str, lang: str) -> str:
    title = translate(wt.GAME_TITLE.format(id=game.id), lang)
    body = f'{fragment}<p class="note" id="note">{t(wt.LIVE_NOTE, lang)}</p>'
    return page(
        lang, title, body, kind="live",
        data={"events": events, "lost": translate(wt.LIVE_LOST, lang)},
    )  # fmt: skip


def event(game: GameRow, fragment: str) -> bytes:
    """A Server-Sent Event carrying the live fragment of a version."""
    data = json.dumps({"version": game.version, "html": fragment}, ensure_ascii=False)
    return f"id: {game.version}\ndata: {data}\n\n".encode()


# --- the replay ---


def move_line(game: GameRow, move: story.Move, lang: str) -> str:
    with i18n.speaking(lang):
        who = story.who(game, move.seat, move.user_id)
        return said(wt_labelled(who, move.told), lang)


def wt_labelled(name: str, text: str) -> str:
    return texts.LABELLED.format(name=name, text=text)


def step_fragment(game: GameRow, replay: Replay, step: int, lang: str) -> str:
    """One step of a replay: where it is, its board, what happened."""
    with i18n.speaking(lang):
        lines = replay.lines(step)
        status = replay.status(step)
    drawn, v = board(game, replay.states[step], lang, replay.changed(step))
    told = "".join(f"<li>{said(line, lang)}</li>" for line in lines)
    return (
        f'<div id="step" data-step="{step}"><p class="phase">{t(status, lang)}</p>'
        f'<div class="cols"><figure class="boardbox">{drawn}</figure><section>'
        f"<h2>{t(wt.SEATS, lang)}</h2>{seats_list(game, v, lang)}"
        f'<ul class="story">{told}</ul></section></div></div>'
    )


def replay_page(game: GameRow, replay: Replay, step: int, base: str, lang: str) -> str:
    """The replay: the step shown, the buttons, the slider and the moves by round."""
    rounds: dict[int, list[str]] = {}
    for i, move in enumerate(replay.moves):
        number = replay.round_of(i)
        rounds.setdefault(number, []).append(
            f'<li><a href="#s{i + 1}" data-step="{i + 1}">{move_line(game, move, lang)}</a></li>'
        )
    sections = [f'<li><a href="#s0" data-step="0">{t(REPLAY_START, lang)}</a></li>']
    listed = "".join(
        f"<h3>{t(wt.SETUP if n == 0 else wt.ROUND.format(n=n), lang)}</h3><ol>{''.join(items)}</ol>"
        for n, items in sorted(rounds.items())
    )
    controls = (
        f'<div class="controls"><button type="button" id="prev">{t(wt.PREVIOUS, lang)}</button>'
        f'<input type="range" id="slider" min="0" max="{replay.last}" value="{step}"'
        f' aria-label="{t(wt.STEP_LABEL, lang)}">'
        f'<button type="button" id="next">{t(wt.NEXT, lang)}</button></div>'
        f'<p class="note">{t(wt.KEYS_HELP, lang)}</p>'
    )
    body = (
        f'<nav><a href="{escape(base)}">{t(wt.LIVE_LINK, lang)}</a> · '
        f'<a href="{escape(base)}/review">{t(wt.REVIEW_LINK, lang)}</a></nav>'
        f"{controls}{step_fragment(game, replay, step, lang)}"
        f'<section class="moves"><h2>{t(wt.MOVES, lang)}</h2><ul>{"".join(sections)}</ul>'
        f"{listed}</section>"
    )
    title = translate(wt.REPLAY_HEADING.format(id=game.id), lang)
    return page(lang, title, body, kind="replay",
                data={"steps": f"{base}/step/", "last": str(replay.last)})  # fmt: skip


# --- the review ---


def _scores_by_round(replay: Replay) -> list[list[int]]:
    """Each seat's score at the start of each round (index: the round; 0: the setup's end)."""
    out: list[list[int]] = []
    for step in [*replay.round_starts(), replay.last]:
        state = replay.states[step]
        while len(out) <= int(state.round):
            out.append([int(s) for s in engine.scores(state)])
        out[int(state.round)] = [int(s) for s in engine.scores(state)]
    return out


def review_chart(
    game: GameRow, replay: Replay, shown: Sequence[tuple[int, Decision]], lang: str
) -> str:
    """The scores over the rounds, a line per seat, each costly turn a numbered mark that opens
    its decision (a link to its part of the page)."""
    scores = _scores_by_round(replay)
    rounds = max(1, len(scores) - 1)
    top = max(1, max((max(r) for r in scores), default=1))
    w, h, pad = 320.0, 160.0, 14.0

    def at(r: int, value: float) -> tuple[float, float]:
        return pad + (w - 2 * pad) * r / rounds, h - pad - (h - 2 * pad) * value / top

    out = [
        f'<svg class="chart" viewBox="0 0 {w:.0f} {h:.0f}" role="img" xmlns="http://www.w3.org/2000/svg">'
        f"<title>{t(wt.CHART_TITLE, lang)}</title>",
        f'<line x1="{pad}" y1="{h - pad}" x2="{w - pad}" y2="{h - pad}" stroke="#9fb"/>',
    ]
    for seat in range(len(game.seats)):
        points = " ".join(
            "{:.1f},{:.1f}".format(*at(r, row[seat]))
            for r, row in enumerate(scores)
            if seat < len(row)
        )
        out.append(
            f'<polyline points="{points}" fill="none" stroke="{_colour(seat)}" stroke-width="2"/>'
        )
    for number, d in shown:
        r = min(max(d.round, 0), len(scores) - 1)
        x, y = at(r, scores[r][d.seat] if d.seat < len(scores[r]) else 0)
        out.append(
            f'<a href="#d{number}" class="mark" data-decision="{number}">'
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="7" fill="{_colour(d.seat)}" stroke="#fff"/>'
            f'<text x="{x:.1f}" y="{y + 3:.1f}">{number}</text></a>'
        )
    out.append("</svg>")
    return "".join(out)


def review_page(
    game: GameRow,
    replay: Replay,
    parts: Sequence[PersonReview] | None,
    base: str,
    lang: str,
) -> str:
    """The review: the chart with the costly turns marked, and each turn's words (opened by a
    click on its mark)."""
    title = translate(wt.REVIEW_HEADING.format(id=game.id), lang)
    nav = (
        f'<nav><a href="{escape(base)}">{t(wt.LIVE_LINK, lang)}</a> · '
        f'<a href="{escape(base)}/replay">{t(wt.REPLAY_LINK, lang)}</a></nav>'
    )
    if parts is None:
        return page(lang, title, f"{nav}<p>{t(wt.NO_REVIEW, lang)}</p>", kind="review")
    shown = [d for part in parts for d in part.decisions]
    numbered = list(enumerate(shown, start=1))
    items = []
    for number, d in numbered:
        with i18n.speaking(lang):
            name = player_name(game, d.seat)
            summary = wt.DECISION.format(
                number=number, name=name, round=d.round, loss=Number(d.loss)
            )
            words = [rt.headline(d, name), rt.reason(d, name)]
        items.append(
            f'<details id="d{number}"><summary>{t(summary, lang)}</summary>'
            + "".join(f"<p>{said(w, lang)}</p>" for w in words)
            + f'<p><a href="{escape(base)}/replay#s{d.ply}">{t(wt.OPEN_STEP, lang)}</a></p></details>'
        )
    if not items:
        items = [f"<p>{t(wt.REVIEW_WEB_INTRO, lang)}</p>"]
    body = f"{nav}<p>{t(wt.REVIEW_WEB_INTRO, lang)}</p>{review_chart(game, replay, numbered, lang)}{''.join(items)}"
    return page(lang, title, body, kind="review")


# --- profiles and leaderboards ---


def _family(family: str) -> Text:
    return wt.FAMILY_MOON if family == "moonlight" else wt.FAMILY_BASE


def rating_chart(points: Sequence[float], lang: str) -> str:
    """A rating's history as a line."""
    if len(points) < 2:
        return ""
    w, h, pad = 320.0, 120.0, 10.0
    low, high = min(points), max(points)
    span = (high - low) or 1.0
    coords = " ".join(
        f"{pad + (w - 2 * pad) * i / (len(points) - 1):.1f},"
        f"{h - pad - (h - 2 * pad) * (p - low) / span:.1f}"
        for i, p in enumerate(points)
    )
    return (
        f'<svg class="chart" viewBox="0 0 {w:.0f} {h:.0f}" role="img" xmlns="http://www.w3.org/2000/svg">'
        f'<title>{t(wt.RATING_CHART, lang)}</title><polyline points="{coords}" fill="none"'
        f' stroke="{_colour(1)}" stroke-width="2"/></svg>'
    )


def profile_page(profile: Profile, name: str, game_links: dict[int, str], lang: str) -> str:
    parts = [f"<p>{t(wt.PROFILE_GAMES.format(played=profile.played, won=profile.won), lang)}</p>"]
    if profile.average_score is not None and profile.best_score is not None:
        line = wt.PROFILE_AVERAGE.format(
            average=Number(profile.average_score), best=profile.best_score
        )
        parts.append(f"<p>{t(line, lang)}</p>")
    for rating in profile.ratings:
        if rating.scope != profile.guild_id:
            continue
        line = wt.rating_line(_family(rating.family), Number(rating.ordinal), rating.games)
        rank = "" if rating.rank is None else f" ({t(wt.RANK.format(rank=rating.rank), lang)})"
        parts.append(f"<h2>{t(line, lang)}{rank}</h2>")
        parts.append(rating_chart([p.ordinal for p in rating.history], lang))
    games = []
    for game in profile.recent:
        mine = game.mine
        line = wt.RECENT_LINE.format(
            id=game.game_id, date=game.finished_at[:10], place=mine.place, score=mine.score
        )
        link = game_links.get(game.game_id)
        said_line = t(line, lang)
        games.append(
            f'<li><a href="{escape(link)}/replay">{said_line}</a></li>'
            if link
            else f"<li>{said_line}</li>"
        )
    parts.append(f'<h2>{t(wt.RECENT, lang)}</h2><ul class="games">{"".join(games)}</ul>')
    title = translate(wt.PROFILE_HEADING.format(name=name), lang)
    return page(lang, title, "".join(parts), kind="profile")


def identity_name(identity: str) -> Text | str:
    """A bot's name on a leaderboard: Cynthia at her difficulty, the Expert."""
    kind, _sep, rest = identity.partition(":")
    if kind == ri.CYNTHIA:
        return pt.CYNTHIA_LEVELS.get(rest, pt.CYNTHIA_MIXED)
    if kind == ri.EXPERT:
        return xt.BOT_LABELS["expert"] if rest == "quick" else xt.STRONG_EXPERT
    return identity


def boards_page(
    boards: Sequence[tuple[LeaderboardPage, dict[int, str]]],
    links: dict[int, str],
    lang: str,
) -> str:
    parts = []
    for board, names in boards:
        parts.append(f"<h2>{t(_family(board.family), lang)}</h2>")
        if not board.entries:
            parts.append(f"<p>{t(wt.BOARD_EMPTY.format(n=board.min_games), lang)}</p>")
            continue
        rows = []
        for entry in board.entries:
            if entry.user_id is not None:
                name = escape(names.get(entry.user_id, "?"))
                link = links.get(entry.user_id)
                shown = f'<a href="{escape(link)}">{name}</a>' if link else name
            else:
                shown = t(identity_name(entry.identity), lang)
            rows.append(
                f"<tr><td>{entry.rank}</td><td>{shown}</td>"
                f"<td>{decimal(entry.ordinal, lang)}</td><td>{entry.games}</td></tr>"
            )
        head = "".join(
            f"<th>{t(c, lang)}</th>"
            for c in (wt.RANK_COLUMN, wt.PLAYER_COLUMN, wt.RATING_COLUMN, wt.GAMES_COLUMN)
        )
        parts.append(f'<table class="board"><tr>{head}</tr>{"".join(rows)}</table>')
    return page(lang, translate(wt.BOARDS_HEADING, lang), "".join(parts), kind="boards")
