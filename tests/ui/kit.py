"""A pure rendering kit for presenter tests: sessions without Discord, the clicks that lead to a move,
and the privacy and limit checks every table and hand must pass.

The path finder clicks through a hand the way a player would, but on renderings: a hand-step
button or select gives the next ``ui`` exactly as ``bot.play.clicks`` builds it, and a move button or
select gives an action key exactly as the host receives it. So "every legal action is reachable"
is checked against the real custom_ids, not against a second description of the UI.
"""

from __future__ import annotations

import copy
import random
from collections import deque
from dataclasses import dataclass, replace

import games
from bot.play.seats import human
from bot.play.sessions import Session, Status
from bot.registry import presenter
from bot.transport import ids
from bot.ui.base import Rendered
from games.base import Action, Event
from tests.double import custom_ids, option_values, view_body, visible_texts
from tests.double.attachments import reference_problems
from tests.double.validate import validate_message_body

PNG = b"\x89PNG\r\n\x1a\n"
#: The size budget of a table picture (docs/performance.md).
MAX_PICTURE = 200_000
#: How far the path finder explores in-hand steps (states of ``ui``), per hand.
MAX_STEPS = 4
MAX_STATES = 600


@dataclass(frozen=True)
class Click:
    """One click: a button (``values`` empty) or a select with the chosen values."""

    custom_id: str
    values: tuple[str, ...] = ()
    where: str = "hand"


@dataclass(frozen=True)
class _Offer:
    """A move component: a button with its action, or a select with its prefix and options."""

    path: tuple[Click, ...]
    component: dict
    where: str

    def click_for(self, key: str) -> Click | None:
        comp = self.component
        click = ids.parse(comp["custom_id"])
        if comp["type"] == 2:
            return Click(comp["custom_id"], (), self.where) if click.arg == key else None
        prefix = click.arg.split("|")[0]
        if not key.startswith(prefix):
            return None
        rest = key[len(prefix):]
        offered = [option["value"] for option in comp["options"]]
        if rest in offered:
            return Click(comp["custom_id"], (rest,), self.where)
        chosen = rest.split(".")
        if comp.get("max_values", 1) >= len(chosen) >= comp.get("min_values", 1) > 0 \
                and len(set(chosen)) == len(chosen) and all(value in offered for value in chosen):
            return Click(comp["custom_id"], tuple(chosen), self.where)
        return None

    def actions(self) -> list[str]:
        """The single-choice actions this component offers (multi-value choices are matched later)."""
        comp = self.component
        click = ids.parse(comp["custom_id"])
        if comp["type"] == 2:
            return [click.arg]
        prefix = click.arg.split("|")[0]
        return [prefix + option["value"] for option in comp["options"]]


# -- sessions without Discord -----------------------------------------------------------------------
def make_session(game_key: str, players: int, seed: str = "kit", options=None, lang: str = "en") -> Session:
    game = games.REGISTRY[game_key]
    opts = game.parse_options(options) if isinstance(options, dict) else (options or game.default_options())
    state, opening = game.begin(players, opts, seed)
    seats = tuple(human(1000 + i, f"P{i}") for i in range(players))
    status = Status.FINISHED if game.is_over(state) else Status.PLAYING
    return Session(7, 1, 2, game, 1000, lang, status, opts, seats, 0.0, seed=seed, state=state,
                   counters=[0] * players, started_at=0.0, opening=opening)


def play(session: Session, seat: int, key: str) -> list[Event]:
    """Apply a move as the host does: check, apply, count, log, finish."""
    game = session.game
    action = Action.parse(key)
    game.check(session.state, seat, action)
    events = game.apply(session.state, seat, action)
    session.counters[seat] += 1
    session.history.append((seat, action, events))
    if game.is_over(session.state):
        session.status = Status.FINISHED
    return events


def random_walk(session: Session, rng: random.Random, steps: int) -> list[Event]:
    """Up to ``steps`` random legal moves; returns the events of the last one."""
    events: list[Event] = []
    game = session.game
    for _ in range(steps):
        if session.status is not Status.PLAYING:
            break
        seat = rng.choice(sorted(game.to_act(session.state)))
        events = play(session, seat, rng.choice(game.legal_actions(session.state, seat)).key)
    return events


def resampled(session: Session, seat: int, rng: random.Random) -> Session:
    """The same session with every card hidden from ``seat`` dealt anew."""
    other = replace(session, counters=list(session.counters), history=list(session.history))
    other.state = session.game.resample(session.state, seat, rng)
    return other


# -- the path finder --------------------------------------------------------------------------------
def _components(rendered: Rendered):
    stack = list(rendered.view.to_components())
    while stack:
        comp = stack.pop(0)
        if comp.get("type") in (2, 3) and comp.get("custom_id") and not comp.get("disabled"):
            yield comp
        stack[0:0] = comp.get("components") or []
        if comp.get("accessory"):
            stack.insert(0, comp["accessory"])


def _explore(session: Session, seat: int, lang: str, hint: str | None = None):
    """Every hand state reachable by in-hand steps, and every move component on the way.

    ``hint`` is an action key being looked for: a multi-value hand-step select then also tries the
    option values that occur in it (a selection of several cards).
    """
    show = presenter(session.game.key)
    counter = session.counters[seat]
    offers: list[_Offer] = []
    uis: dict[str, tuple[Click, ...]] = {}
    for message in show.table(session, lang, None):
        for comp in _components(message):
            click = ids.parse(comp["custom_id"])
            if click is not None and click.kind in ("m", "s") and click.seat == seat and click.counter == counter:
                offers.append(_Offer((), comp, "table"))
    queue: deque[tuple[str, tuple[Click, ...]]] = deque([("", ())])
    while queue and len(uis) < MAX_STATES:
        ui, path = queue.popleft()
        if ui in uis:
            continue
        uis[ui] = path
        for comp in _components(show.hand(session, seat, lang, ui, None)):
            click = ids.parse(comp["custom_id"])
            if click is None or click.seat != seat or click.counter != counter:
                continue
            if click.kind in ("m", "s"):
                offers.append(_Offer(path, comp, "hand"))
            elif click.kind == "h" and len(path) < MAX_STEPS:
                for values in _step_choices(comp, hint):
                    nxt = f"{click.arg}:{'.'.join(values)}" if values else click.arg
                    queue.append((nxt, (*path, Click(comp["custom_id"], values))))
    return offers, uis


def _step_choices(comp: dict, hint: str | None) -> list[tuple[str, ...]]:
    if comp["type"] == 2:
        return [()]
    values = [option["value"] for option in comp["options"]]
    choices = [(value,) for value in values]
    if comp.get("max_values", 1) > 1 and hint:
        wanted = tuple(value for value in values if value in hint)
        if len(wanted) > 1:
            choices.insert(0, wanted[: comp["max_values"]])
    return choices


def hand_path(session: Session, seat: int, key: str, lang: str = "en") -> list[Click] | None:
    """The clicks from a freshly opened hand (or on the table) that make ``key``, or None."""
    offers, _ = _explore(session, seat, lang, hint=key)
    key = canonical(session, seat, key)
    for offer in sorted(offers, key=lambda o: len(o.path)):
        click = offer.click_for(key)
        if click is not None:
            return [*offer.path, click]
    return None


def canonical(session: Session, seat: int, key: str) -> str:
    """The one of several equivalent moves that the hand offers (presenters may say, see Calcory)."""
    same = getattr(presenter(session.game.key), "canonical", None)
    return same(session, seat, key) if same is not None else key


def reachable(session: Session, seat: int, lang: str = "en") -> set[str]:
    """Every single-choice action key the table and the hand offer to ``seat``."""
    offers, _ = _explore(session, seat, lang)
    return {key for offer in offers for key in offer.actions()}


def hand_states(session: Session, seat: int, lang: str = "en") -> list[str]:
    """Every ``ui`` step reachable in the seat's hand (the first is the plain hand)."""
    return list(_explore(session, seat, lang)[1])


def offered(session: Session, seat: int, lang: str = "en", states: int = 40) -> list[dict]:
    """Every move and hand-step component of ``seat``: on the table, and in its hand in each of
    the first ``states`` reachable in-hand steps."""
    show = presenter(session.game.key)
    out = [comp for message in show.table(session, lang, None) for comp in _components(message)]
    for ui in hand_states(session, seat, lang)[:states]:
        out.extend(_components(show.hand(session, seat, lang, ui, None)))
    return out


def components(rendered: Rendered) -> list[dict]:
    """Every component of a message, nested ones included, in reading order."""
    out, stack = [], list(rendered.view.to_components())
    while stack:
        comp = stack.pop(0)
        out.append(comp)
        stack[0:0] = comp.get("components") or []
    return out


def controls(rendered: Rendered) -> list[dict]:
    """Every button and select of a message, in reading order, wherever it sits (a hand's are in its
    container)."""
    return [comp for comp in components(rendered) if comp["type"] in (2, 3)]


def table_text(session: Session, lang: str = "en", last: str | None = None) -> str:
    """The text displays of the public table, joined."""
    return "\n".join(c["content"] for rendered in presenter(session.game.key).table(session, lang, last)
                     for c in components(rendered) if c["type"] == 10)


# -- checks -----------------------------------------------------------------------------------------
def body(rendered: Rendered, *, ephemeral: bool = False) -> dict:
    """The message body as sent, with the attachments its pictures become."""
    out = view_body(rendered.view, content=rendered.content, ephemeral=ephemeral)
    if rendered.pictures:
        out["attachments"] = [{"id": str(i), "filename": p.name, "description": p.alt}
                              for i, p in enumerate(rendered.pictures)]
    return out


def check_limits(rendered: Rendered, *, ephemeral: bool = False) -> None:
    """Raises unless Discord would accept this message (OpenAPI schema plus the unstated limits), its
    pictures included: valid PNGs within the size a table picture may have, each gallery item
    naming an attached picture."""
    sent = body(rendered, ephemeral=ephemeral)
    validate_message_body(sent)
    assert not reference_problems(sent, sent.get("attachments", [])), "a gallery shows a picture not attached"
    for picture in rendered.pictures:
        assert picture.png.startswith(PNG) and len(picture.png) <= MAX_PICTURE, f"{picture.name} is no small PNG"


def _seen(rendered: Rendered) -> tuple:
    """What a user can tell from a message: its texts, ids and option values, its pictures and
    their alt texts."""
    b = body(rendered)
    return visible_texts(b), custom_ids(b), option_values(b), tuple((p.png, p.alt) for p in rendered.pictures)


def check_private(session: Session, rng: random.Random, lang: str = "en") -> None:
    """The public table (text, pictures and alt texts) is the same for every deal of the cards a
    seat cannot see, and each hand (likewise) is the same for every deal of the cards hidden from
    its owner (in every in-hand step)."""
    show = presenter(session.game.key)
    table = [_seen(r) for r in show.table(session, lang, None)]
    for seat in range(len(session.seats)):
        other = resampled(session, seat, random.Random(rng.random()))
        assert [_seen(r) for r in show.table(other, lang, None)] == table, \
            f"the public table depends on cards hidden from seat {seat}"
        for ui in hand_states(session, seat, lang)[:40]:
            mine = _seen(show.hand(session, seat, lang, ui, None))
            assert _seen(show.hand(other, seat, lang, ui, None)) == mine, \
                f"seat {seat}'s hand (step {ui!r}) depends on cards hidden from it"


def check_public_lines(session: Session, events: list[Event], lang: str = "en") -> None:
    """``describe`` and ``summary`` use only public events."""
    show = presenter(session.game.key)
    public = [event for event in events if event.to is None]
    assert show.describe(session, list(events), lang) == show.describe(session, public, lang), \
        "the public line uses a private event"
    summary = getattr(show, "summary", None)
    if summary is not None:
        assert summary(session, list(events), lang) == summary(session, public, lang), \
            "the hand summary uses a private event"


def snapshot(session: Session) -> Session:
    """A deep copy to explore from without touching the original."""
    return replace(session, state=copy.deepcopy(session.state), counters=list(session.counters),
                   history=list(session.history))
