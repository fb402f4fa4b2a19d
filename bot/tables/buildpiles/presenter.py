"""Da Capo! and Skippo on Discord: one table message, and a hand that plays a card in one click.

Both games lay out the same picture (build piles in the middle; for each player a pile of which
only the top shows, face-up helper piles and a hand), so the table and the hand are written once,
here; ``bot/tables/dacapo/presenter.py`` and ``bot/tables/skippo/presenter.py`` only name the game. The hand's moves come from
the engine's ``legal_actions`` for the hand's own seat, which depend only on what that seat sees.

The table is one Components V2 message: the build piles and the supply, one line per player (pile
top and size, hand count, helper tops and sizes, Skippo's set-aside jokers, score), the turn line
and the Hand button.

The hand offers one button per play when they fit (its label says everything: ``pile 7 → B`` puts
the top of your own pile on build pile B), so a long turn is one click per card; when they do not fit,
a card with several targets becomes a step to its targets. Below that: the discard that ends the
turn, one select of (card → helper pile); and a row with Draw/End/Set aside, paging, and "By card",
a step to every card on its own. The quick view shows equal cards once (the two 7s of a hand make
the same move); the card views hold every copy's moves.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.i18n import t
from bot.pictures import Pictures
from bot.storage.status import Status
from bot.transport import ids
from bot.ui.base import Rendered, Style, button, hand_button, hand_message, row, select, text
from bot.ui.labels import helper_label, pile_label, seat_badge
from bot.ui.pictured import framed, hand_picture, table_picture
from bot.ui.presenters import Voice, voiced
from bot.ui.rules import rules_or_rematch
from bot.ui.shown import Shown
from bot.ui.summary import render_hand
from games.base import Event, top_scorers
from games.buildpiles import BuildPileGame
from games.buildpiles.state import SeatView, TableView
from games.keys import number

JOKER = "🃏"
#: Action rows of a hand (Discord's limit), and buttons per page in the step views: four rows,
#: the fifth holds Back and the page buttons.
HAND_ROWS = 5
PAGE = 20
#: Characters of a player's name in a button label.
NAME_CHARS = 12


def build_pile(target: str) -> str:
    """A build pile named by the engine (``b2``: the second slot) as the table and picture letter it (B)."""
    return pile_label(int(target[1:]) - 1)


def helper_pile(target: str) -> str:
    """A helper pile named by the engine (``helper:2``, counted from 1) as the table and picture name it (H2)."""
    return helper_label(int(target.partition(":")[2]) - 1)


def game_of(session: Shown) -> BuildPileGame[Any]:
    """The session's game: these tables show only the build-pile games."""
    game = session.game
    if not isinstance(game, BuildPileGame):
        raise TypeError(f"{game.key} is no build-pile game")
    return game


def _lowest_free(piles: Iterable[Sequence[str]]) -> int:
    return next((i for i, pile in enumerate(piles) if not pile), -1)


@dataclass(frozen=True, slots=True)
class Choice:
    """One clickable move: its action key, its button label, and the (source, card) it moves."""

    key: str
    label: str
    style: Style
    parts: tuple[tuple[str, str], ...]


class BuildPilePresenter:
    table_messages = 1

    def __init__(self, key: str, pictures: Pictures) -> None:
        self.key = key
        self.pictures = pictures

    # -- hooks of the two games ---------------------------------------------------------------
    def helper_top(self, pile: tuple[str, ...], game: BuildPileGame[Any]) -> str:
        """A helper pile's top as shown (Skippo adds a joker's cap)."""
        return self.card(game, pile[-1])

    def score(self, session: Shown, lang: str, points: int) -> str:
        return t(lang, "buildpiles.ui.points", points=points)

    def header(self, session: Shown, view: TableView, lang: str) -> str:
        return t(lang, f"{self.key}.ui.header", number=view.game_no, target=getattr(session.options, "target", 0),
                 games=getattr(session.options, "games", 0))

    # -- cards and places -----------------------------------------------------------------------
    @staticmethod
    def card(game: BuildPileGame[Any], card: str) -> str:
        face = game.face(card)
        return JOKER if face == "X" else face

    def valued(self, game: BuildPileGame[Any], card: str, value: int) -> str:
        """A card on a build pile: a joker shows the value it stands for."""
        label = self.card(game, card)
        return f"{label}({game.face_of_value(value)})" if label == JOKER else label

    def source(self, session: Shown, source: str, card: str, lang: str) -> str:
        """A card with where it comes from, in words (``pile 7``, ``H2·5``, ``Anna's pile 3``); a hand
        card is the card alone."""
        if source == game_of(session).PILE_NAME:
            return t(lang, f"{self.key}.ui.from_pile", card=card)
        if source == "reserve":
            return t(lang, "buildpiles.ui.from_reserve", card=card)
        if source.startswith("helper:"):
            return f"{helper_pile(source)}·{card}"
        if source.startswith("pile:seat"):
            return t(lang, f"{self.key}.ui.from_seat", name=session.seats[int(source[9:])].name[:NAME_CHARS],
                     card=card)
        return card

    @staticmethod
    def pile_target(view: TableView, target: str, lang: str) -> str:
        if target == "new":
            return t(lang, "buildpiles.ui.new_pile", pile=pile_label(_lowest_free(view.build)))
        return build_pile(target)

    @staticmethod
    def helper_target(view: TableView, seat: int, target: str, lang: str) -> str:
        if target == "new":
            return t(lang, "buildpiles.ui.new_helper", helper=helper_label(_lowest_free(view.seats[seat].helpers)))
        return helper_pile(target)

    def build_line(self, session: Shown, view: TableView, lang: str) -> str:
        game = game_of(session)
        piles = []
        for i, pile in enumerate(view.build):
            if not pile:
                piles.append(f"{pile_label(i)} {t(lang, 'buildpiles.ui.free')}")
                continue
            top = f"**{game.face_of_value(len(pile))}**"
            piles.append(f"{pile_label(i)} {top}{JOKER if self.card(game, pile[-1]) == JOKER else ''}")
        return t(lang, "buildpiles.ui.build", piles=" · ".join(piles))

    def helpers_text(self, session: Shown, helpers: Iterable[tuple[str, ...]]) -> str:
        out = []
        for i, pile in enumerate(helpers):
            if not pile:
                out.append(f"{helper_label(i)} —")
            else:
                size = f" ({len(pile)})" if len(pile) > 1 else ""
                out.append(f"{helper_label(i)} **{self.helper_top(pile, game_of(session))}**{size}")
        return " · ".join(out)

    def pile_text(self, session: Shown, seat_view: SeatView, lang: str) -> str:
        top = self.card(game_of(session), seat_view.pile_top) if seat_view.pile_top else "—"
        text_ = t(lang, f"{self.key}.ui.pile", top=top, size=seat_view.pile_size)
        if seat_view.reserve:
            text_ += " " + t(lang, "buildpiles.ui.reserve", jokers=JOKER * len(seat_view.reserve))
        return text_

    # -- the table ----------------------------------------------------------------------------
    def table(self, session: Shown, lang: str, last: str | None) -> list[Rendered]:
        view = session.game.view(session.state, None)
        playing = session.status == Status.PLAYING
        head = [self.header(session, view, lang), self.build_line(session, view, lang), self.supply(view, lang)]
        players = []
        for seat, sv in enumerate(view.seats):
            marker = "▶ " if playing and seat == view.current else ""
            players.append(t(lang, "buildpiles.ui.seat", badge=seat_badge(seat), marker=marker,
                             name=session.seats[seat].name,
                             pile=self.pile_text(session, sv, lang), hand=sv.hand_size,
                             helpers=self.helpers_text(session, sv.helpers),
                             score=self.score(session, lang, view.scores[seat] if view.scores else 0)))
        players += self.table_notes(session, view, lang)
        turn = [last] if last else []
        turn.append(self.turn_line(session, view, lang))
        hand = hand_button(session, lang)
        picture = table_picture(self.pictures, session, view, lang, "\n".join(head[1:] + players))
        return [framed([text("\n".join(head)), text("\n".join(players)), text("\n".join(turn)), row(hand, *rules_or_rematch(session, lang))],
                       picture)]

    @staticmethod
    def supply(view: TableView, lang: str) -> str:
        """The draw pile, and the cards of completed build piles waiting to be shuffled into it (said
        only while there are some)."""
        line = t(lang, "buildpiles.ui.supply", draw=view.draw_size)
        return line + t(lang, "buildpiles.ui.supply_aside", aside=view.set_aside_size) if view.set_aside_size else line

    def table_notes(self, session: Shown, view: TableView, lang: str) -> list[str]:
        """Small print under the players for a mark the table shows that needs a word (Skippo's capped
        jokers); none here."""
        return []

    def turn_line(self, session: Shown, view: TableView, lang: str) -> str:
        if session.status == Status.STOPPED:
            return t(lang, "table.stopped")
        if view.over:
            if view.winners and view.winners[-1] is None:
                return t(lang, "buildpiles.ui.stalled")
            names = ", ".join(session.seats[s].name for s in sorted(top_scorers(view.scores)))
            return t(lang, "buildpiles.ui.match_won", names=names)
        line = t(lang, "buildpiles.ui.turn", name=self._name(session, view.current))
        if view.quiet:
            line += "\n" + t(lang, "buildpiles.ui.quiet", quiet=view.quiet, left=len(view.seats) - view.quiet)
        return line

    # -- the hand -----------------------------------------------------------------------------
    def hand(self, session: Shown, seat: int, lang: str, ui: str, notice: str | None) -> Rendered:
        view = session.game.view(session.state, seat)
        mine = view.seats[seat]
        game = game_of(session)
        lines = [notice] if notice else []
        cards = " · ".join(self.card(game, c) for c in view.hand) or "—"
        alt = t(lang, "buildpiles.ui.your_hand", count=len(view.hand), cards=cards)
        lines.append(alt)
        lines.append(t(lang, f"{self.key}.ui.your_pile", pile=self.pile_text(session, mine, lang)))
        lines.append(t(lang, "buildpiles.ui.your_helpers", helpers=self.helpers_text(session, mine.helpers)))
        lines.append(self.build_line(session, view, lang))
        out: list[dict] = []
        if session.status != Status.PLAYING or view.over:
            lines.append(t(lang, "buildpiles.ui.hand_over"))
        elif view.current != seat:
            lines.append(t(lang, "buildpiles.ui.wait", name=session.seats[view.current].name))
        turn = self._turn(session, seat, view, lang)
        if turn is not None:
            turn.render(ui, lines, out)
        picture = hand_picture(self.pictures, session, view, lang, turn.playable() if turn else (), alt,
                               lambda card: self.card(game, card))
        return hand_message(session, seat, lines, out, picture)

    def _turn(self, session: Shown, seat: int, view: TableView, lang: str) -> _Turn | None:
        """The seat's moves while it is the seat's turn."""
        mine = session.status == Status.PLAYING and not view.over and view.current == seat
        return _Turn(self, session, seat, view, lang) if mine else None

    def playable(self, session: Shown, seat: int) -> tuple[str, ...]:
        turn = self._turn(session, seat, session.game.view(session.state, seat), session.lang)
        return turn.playable() if turn else ()

    # -- public lines -------------------------------------------------------------------------
    def describe(self, session: Shown, events: list[Event], lang: str, voice: Voice = "") -> str | None:
        """What the move did, in order, from public events only."""
        public = [e for e in events if e.to is None]
        said: list[str] = []
        ended = False
        plays: list[Event] = []

        def flush() -> None:
            if plays:
                cards = "+".join(self.source(session, e.data["from"],
                                             self.valued(game_of(session), e.data["card"], e.data["value"]), lang)
                                 for e in plays)
                said.append(t(lang, voiced("buildpiles.ui.ev.play", voice), name=self._name(session, plays[0].seat), cards=cards,
                              pile=build_pile(plays[0].data["to"])))
                plays.clear()

        for e in public:
            if e.kind == "play":
                if plays and plays[-1].data["to"] != e.data["to"]:
                    flush()
                plays.append(e)
                continue
            if e.kind == "reveal":
                continue
            flush()
            if e.kind == "turn_end":
                if not ended and not any(x.kind == "discard" for x in public):
                    said.append(t(lang, voiced("buildpiles.ui.ev.end", voice), name=self._name(session, e.seat)))
                ended = True
            elif e.kind == "draw" and ended:
                continue
            elif (line := self._event_line(session, e, lang, voice)) is not None:
                said.append(line)
        flush()
        line = " ".join(said)
        return (line if len(line) <= 900 else line[:899] + "…") or None

    @staticmethod
    def _name(session: Shown, seat: int | None) -> str:
        return session.seats[seat].name if seat is not None else "?"

    def _event_line(self, session: Shown, e: Event, lang: str, voice: Voice) -> str | None:
        data, name = e.data, self._name(session, e.seat)
        kind = e.kind
        if kind == "complete":
            return t(lang, "buildpiles.ui.ev.complete", pile=build_pile(data["pile"]))
        if kind == "discard":
            return t(lang, voiced("buildpiles.ui.ev.discard", voice), name=name, card=self.card(game_of(session), data["card"]),
                     helper=helper_pile(data["to"]))
        if kind == "draw":
            return t(lang, voiced("buildpiles.ui.ev.draw", voice), name=name, count=data["count"])
        if kind == "ace_out":
            return t(lang, "buildpiles.ui.ev.ace_out", name=name, pile=build_pile(data["to"]))
        if kind == "aside":
            return t(lang, voiced("buildpiles.ui.ev.aside", voice), name=name)
        if kind == "reshuffle":
            return t(lang, "buildpiles.ui.ev.reshuffle", count=data["count"])
        if kind == "pile_empty":
            if data.get("by", e.seat) != e.seat:
                return t(lang, "buildpiles.ui.ev.pile_taken", name=name, by=self._name(session, data["by"]))
            return t(lang, f"{self.key}.ui.ev_empty", name=name)
        if kind == "stock_empty":
            return t(lang, f"{self.key}.ui.ev_empty", name=name)
        if kind == "game_over" and e.seat is not None:
            return t(lang, "buildpiles.ui.ev.won", name=name, number=data["game"])
        if kind == "stalled":
            return t(lang, "buildpiles.ui.ev.stalled", number=data["game"])
        if kind == "match_over":
            return None     # the turn line says so, with the winners
        if kind == "deal":
            return t(lang, "buildpiles.ui.ev.deal", number=data["game"], name=self._name(session, data["first"]))
        return None

    def summary(self, session: Shown, events: list[Event], lang: str) -> str | None:
        """Each game's score breakdown once it is over, unless it ended the match (the closing summary
        shows that one)."""
        public = [e for e in events if e.to is None]
        if any(e.kind == "match_over" for e in public):
            return None
        ends = [e.data["game"] for e in public if e.kind == "game_over"]
        if not ends:
            return None
        history = session.game.view(session.state, None).history
        hand = next((h for h in history if h.number == ends[-1]), None)
        return render_hand(session, hand, lang) if hand is not None else None


class _Turn:
    """The hand of the seat to act: its moves as labelled choices, and the views that offer them.

    ``ui`` names a view and a page: ``""`` (the quick view), ``cards`` (every card on its own),
    ``c:<source>/<card>`` (one card's moves), ``runs`` (Skippo's joker runs), each with ``#<page>``.
    """

    def __init__(self, show: BuildPilePresenter, session: Shown, seat: int, view: TableView, lang: str) -> None:
        self.show, self.session, self.seat, self.view, self.lang = show, session, seat, view, lang
        self.counter = session.counters[seat]
        self.plays: list[Choice] = []
        self.discards: list[Choice] = []
        self.controls: list[dict] = []
        self.can_draw = False
        for action in session.game.legal_actions(session.state, seat):
            self._add(action.kind, action.arg, action.key)
        self.plays.sort(key=lambda c: self._rank(c.parts[-1][0]))

    def playable(self) -> tuple[str, ...]:
        """The hand's cards that go onto a build pile now (alone or in a joker run), in hand order."""
        played = {card for choice in self.plays for source, card in choice.parts if source == "hand"}
        return tuple(card for card in self.view.hand if card in played)

    def _rank(self, source: str) -> int:
        """Own pile first (the goal), then hand, helper piles, set-aside jokers, other players' piles."""
        if source == game_of(self.session).PILE_NAME:
            return 0
        return {"hand": 1, "reserve": 3}.get(source, 2 if source.startswith("helper:") else 4)

    # -- the choices ----------------------------------------------------------------------------
    def _add(self, kind: str, arg: str, key: str) -> None:
        show, session, lang, game = self.show, self.session, self.lang, game_of(self.session)
        if kind == "play":
            card, _, rest = arg.partition("@")
            source, _, target = rest.partition(">")
            label = f"{show.source(session, source, show.card(game, card), lang)} → {show.pile_target(self.view, target, lang)}"
            style = (Style.success if source == game.PILE_NAME else Style.danger if source.startswith("pile:")
                     else Style.primary if source == "hand" else Style.secondary)
            self.plays.append(Choice(key, label, style, ((source, card),)))
        elif kind == "run":
            body, _, target = arg.rpartition(">")
            parts = tuple((self._source(card), card) for card in body.split("+"))
            cards = "+".join(show.source(session, source, show.card(game, card), lang) for source, card in parts)
            label = f"{cards} → {show.pile_target(self.view, target, lang)}"
            self.plays.append(Choice(key, label, Style.primary, parts))
        elif kind == "discard":
            card, _, target = arg.partition(">")
            label = f"{show.card(game, card)} → {show.helper_target(self.view, self.seat, target, lang)}"
            self.discards.append(Choice(key, label, Style.secondary, (("hand", card),)))
        elif kind == "draw":
            self.can_draw = True
            label = t(lang, "buildpiles.ui.draw", count=session.options.hand_size)
            self.controls.append(button(label, self._move(key), style=Style.success))
        elif kind == "end":
            self.controls.append(button(t(lang, "buildpiles.ui.end"), self._move(key), style=Style.danger))
        elif kind == "aside":
            self.controls.append(button(t(lang, "buildpiles.ui.aside"), self._move(key)))

    def _source(self, card: str) -> str:
        """Where a card of a joker run lies, as a play's source would name it."""
        mine = self.view.seats[self.seat]
        if card in self.view.hand:
            return "hand"
        if card in mine.reserve:
            return "reserve"
        if card == mine.pile_top:
            return game_of(self.session).PILE_NAME
        return next((f"helper:{i + 1}" for i, pile in enumerate(mine.helpers) if card in pile), "hand")

    def _move(self, key: str) -> str:
        return ids.move(self.session.id, self.seat, self.counter, key)

    def _step(self, ui: str) -> str:
        return ids.hand_step(self.session.id, self.seat, self.counter, ui)

    def _button(self, choice: Choice) -> dict:
        return button(choice.label, self._move(choice.key), style=choice.style)

    @staticmethod
    def _distinct(choices: list[Choice]) -> list[Choice]:
        """One choice per label: equal cards make the same move."""
        seen: dict[str, Choice] = {}
        for choice in choices:
            seen.setdefault(choice.label, choice)
        return list(seen.values())

    # -- the views ------------------------------------------------------------------------------
    def render(self, ui: str, lines: list[str], out: list[dict]) -> None:
        base, _, page_text = ui.partition("#")
        page = number(page_text) or 0
        if base == "cards":
            lines.append(t(self.lang, "buildpiles.ui.pick_card"))
            self._paged(self._card_buttons(), base, page, out)
        elif base == "runs" and any(c.key.startswith("run:") for c in self.plays):
            lines.append(t(self.lang, "buildpiles.ui.runs_help"))
            runs = [c for c in self.plays if c.key.startswith("run:")]
            self._paged([self._button(c) for c in self._distinct(runs)], base, page, out)
        elif base.startswith("c:") and (moves := self._moves_of(base[2:])):
            source, _, card = base[2:].rpartition("/")
            lines.append(t(self.lang, "buildpiles.ui.card_help",
                           card=self.show.source(self.session, source, self.show.card(game_of(self.session), card),
                                                 self.lang)))
            self._paged([self._button(c) for c in moves], base, page, out)
        else:
            self._quick(page if base == "" else 0, lines, out)

    def _moves_of(self, part: str) -> list[Choice]:
        source, _, card = part.rpartition("/")
        return [c for c in self.plays + self.discards if (source, card) in c.parts]

    def _card_buttons(self) -> list[dict]:
        parts: dict[tuple[str, str], None] = {}
        for choice in self.plays + self.discards:
            for part in choice.parts:
                parts.setdefault(part)
        game = game_of(self.session)
        return [button(self.show.source(self.session, source, self.show.card(game, card), self.lang),
                       self._step(f"c:{source}/{card}"))
                for source, card in sorted(parts, key=lambda part: self._rank(part[0]))]

    def _paged(self, buttons: list[dict], base: str, page: int, out: list[dict]) -> None:
        pages = max(1, -(-len(buttons) // PAGE))
        page = page if page < pages else 0
        chunk = buttons[page * PAGE:(page + 1) * PAGE]
        out.extend(row(*chunk[i:i + 5]) for i in range(0, len(chunk), 5))
        out.append(row(button(t(self.lang, "buildpiles.ui.back"), self._step("back")),
                       *self._page_buttons(base, page, pages)))

    def _page_buttons(self, base: str, page: int, pages: int) -> list[dict]:
        out = []
        if page > 0:
            out.append(button(f"◀ {page}/{pages}", self._step(f"{base}#{page - 1}")))
        if page + 1 < pages:
            out.append(button(f"▶ {page + 2}/{pages}", self._step(f"{base}#{page + 1}")))
        return out

    def _quick(self, page: int, lines: list[str], out: list[dict]) -> None:
        lang = self.lang
        discards = self._distinct(self.discards)
        if self.can_draw:
            lines.append(t(lang, "buildpiles.ui.empty_hand", count=self.session.options.hand_size))
        elif not self.view.hand:
            lines.append(t(lang, "buildpiles.ui.empty_hand_end"))
        elif not discards:
            lines.append(t(lang, "buildpiles.ui.no_discard"))
        else:
            lines.append(t(lang, "buildpiles.ui.your_turn"))
        lines.append(t(lang, f"{self.show.key}.ui.legend"))
        discard_row = self._discard_row(discards) if discards else None
        control = list(self.controls)
        if self.plays or self.discards:
            control.append(button(t(lang, "buildpiles.ui.by_card"), self._step("cards")))
        rows_left = HAND_ROWS - (discard_row is not None) - 1
        items = self._items(self.plays, rows_left * 5)
        per_page = rows_left * 5
        pages = max(1, -(-len(items) // per_page))
        page = page if page < pages else 0
        chunk = items[page * per_page:(page + 1) * per_page]
        out.extend(row(*chunk[i:i + 5]) for i in range(0, len(chunk), 5))
        if discard_row is not None:
            out.append(discard_row)
        control += self._page_buttons("", page, pages)
        if control:
            out.append(row(*control))

    def _items(self, plays: list[Choice], room: int) -> list[dict]:
        """A button per distinct play when they fit; else one per card, a step where it has several
        targets, and one step for all joker runs."""
        quick = self._distinct(plays)
        if len(quick) <= room:
            return [self._button(c) for c in quick]
        groups: dict[tuple[str, str], list[Choice]] = {}
        runs = []
        game = game_of(self.session)
        for choice in quick:
            if choice.key.startswith("run:"):
                runs.append(choice)
            else:
                source, card = choice.parts[0]
                groups.setdefault((source, game.face(card)), []).append(choice)
        items = []
        for (source, _), group in groups.items():
            if len(group) == 1:
                items.append(self._button(group[0]))
            else:
                source, card = group[0].parts[0]
                label = f"{self.show.source(self.session, source, self.show.card(game, card), self.lang)} …"
                items.append(button(label, self._step(f"c:{source}/{card}"), style=group[0].style))
        if runs:
            items.append(button(t(self.lang, "buildpiles.ui.runs", count=len(runs)), self._step("runs"),
                                style=Style.primary))
        return items

    def _discard_row(self, discards: list[Choice]) -> dict:
        """The move that ends the turn: (card → helper pile) in one select, or when there are more
        than 25 such pairs, the card first (its view then offers the helper piles)."""
        lang = self.lang
        if len(discards) <= 25:
            options = [(c.label, c.key.removeprefix("discard:")) for c in discards]
            return row(select(ids.move_select(self.session.id, self.seat, self.counter, "discard:"), options,
                              placeholder=t(lang, "buildpiles.ui.discard")))
        cards: dict[str, str] = {}
        for choice in discards:
            card = choice.parts[0][1]
            cards.setdefault(self.show.card(game_of(self.session), card), card)
        options = [(label, f"hand/{card}") for label, card in cards.items()]
        return row(select(self._step("c"), options, placeholder=t(lang, "buildpiles.ui.discard_card")))
