"""``python -m bot.preview [game] [--players N] [--out DIR]``: every table and hand picture on disk.

Plays each game by seeded random legal moves to a few positions, writes the public table's PNG and
the hand of every seat that may act there, and an ``index.html`` contact sheet that shows them at
phone width (360 px) with a caption, so anyone can look at every table without Discord. A
developer's tool: its own messages are English only.
"""

from __future__ import annotations

import argparse
import html
import random
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import games
from bot.play.seats import human
from bot.play.sessions import Session, Status
from bot.registry import pictures, presenter, with_pictures
from games.base import Action, Game

POSITIONS = 4
#: Random moves between two previewed positions, per game (long games get further apart).
STRIDE = {"mu": 13, "safaru": 5, "rummu": 9, "dacapo": 14, "skippo": 14, "kapado": 9, "diabolo": 6}


@dataclass(frozen=True)
class Position:
    game: str
    players: int
    number: int
    state: object


def positions(key: str, players: int, count: int = POSITIONS, seed: str = "preview") -> Iterator[Position]:
    """``count`` positions of one game reached by seeded random legal moves (the first is the deal)."""
    game = games.REGISTRY[key]
    rng = random.Random(f"{seed}:{key}:{players}")
    state = game.setup(players, game.default_options(), f"{seed}-{key}-{players}")
    for number in range(count):
        yield Position(key, players, number, state)
        for _ in range(STRIDE.get(key, 6)):
            if game.is_over(state):
                return
            seat = rng.choice(sorted(game.to_act(state)))
            game.apply(state, seat, random_move(game, state, seat, rng))


def random_move(game: Game[Any, Any, Any], state: Any, seat: int, rng: random.Random) -> Action:
    """A random legal move, its kind drawn first, so one "pass" weighs as much as all of Mü's bids
    and the walk leaves the auction."""
    legal = game.legal_actions(state, seat)
    kind = rng.choice(sorted({a.kind for a in legal}))
    return rng.choice([a for a in legal if a.kind == kind])


def playable(pos: Position, seat: int) -> frozenset[str]:
    """The seat's cards that its hand on Discord lets it play now: the presenter's own notion."""
    game = games.REGISTRY[pos.game]
    status = Status.FINISHED if game.is_over(pos.state) else Status.PLAYING
    seats = tuple(human(1 + i, f"P{i + 1}") for i in range(pos.players))
    session = Session(0, 0, 0, game, 1, "en", status, game.default_options(), seats, 0.0, state=pos.state,
                      counters=[0] * pos.players)
    ask = getattr(presenter(pos.game), "playable", None)  # optional in the Presenter protocol
    return frozenset(ask(session, seat)) if ask is not None else frozenset()


def render(out: Path, keys: list[str], players: int | None, count: int = POSITIONS) -> list[tuple[str, str]]:
    """Write the pictures of ``keys`` into ``out``; returns (file name, caption) per picture."""
    out.mkdir(parents=True, exist_ok=True)
    for old in [*out.glob("*-table.png"), *out.glob("*-hand*.png")]:
        old.unlink()  # an earlier run's pictures would show up beside this run's
    written: list[tuple[str, str]] = []
    for key in keys:
        game = games.REGISTRY[key]
        drawn = pictures(key)
        if drawn is None:
            raise ValueError(f"no pictures for {key!r}")  # main() offers only games with pictures
        n = players if players is not None else game.min_players
        for pos in positions(key, n, count):
            stem = f"{key}-{n}p-{pos.number}"
            data = drawn.table_png(game.view(pos.state, None))
            if data is not None:
                (out / f"{stem}-table.png").write_bytes(data)
                written.append((f"{stem}-table.png", f"{game.name}, {n} players, position {pos.number}: the table"))
            for seat in sorted(game.to_act(pos.state)) if not game.is_over(pos.state) else ():
                cards = playable(pos, seat)
                data = drawn.hand_png(game.view(pos.state, seat), cards)
                if data is not None:
                    name = f"{stem}-hand{seat + 1}.png"
                    (out / name).write_bytes(data)
                    written.append((name, f"{game.name}, {n} players, position {pos.number}: "
                                          f"hand of seat {seat + 1} ({len(cards)} playable)"))
    (out / "index.html").write_text(_contact_sheet(written), encoding="utf-8")
    return written


def _contact_sheet(pictures: list[tuple[str, str]]) -> str:
    figures = "\n".join(
        f'<figure><img src="{html.escape(name)}" width="360" alt="{html.escape(caption)}">'
        f"<figcaption>{html.escape(caption)}</figcaption></figure>"
        for name, caption in pictures
    )
    return ("<!doctype html>\n<meta charset=\"utf-8\">\n<title>Spieltisch pictures</title>\n"
            "<style>body{font-family:sans-serif;background:#444;color:#eee;display:flex;flex-wrap:wrap;gap:12px}"
            "figure{margin:0;width:360px}img{display:block;width:360px;height:auto}"
            "figcaption{font-size:13px;padding:4px 0}</style>\n" + figures + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.preview", description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", help="one game key (default: every game with pictures)")
    parser.add_argument("--players", type=int, help="players at the table (default: the game's minimum)")
    parser.add_argument("--positions", type=int, default=POSITIONS, help="positions per game")
    parser.add_argument("--out", type=Path, default=Path("preview"), help="folder for the PNGs and index.html")
    args = parser.parse_args(argv)
    keys = sorted(with_pictures()) if args.game is None else [args.game]
    for key in keys:
        if key not in with_pictures():
            known = ", ".join(sorted(with_pictures()))
            print(f"No pictures for {key!r}; games with pictures: {known}.", file=sys.stderr)
            return 2
        game = games.REGISTRY[key]
        if args.players is not None and not game.min_players <= args.players <= game.max_players:
            print(f"{game.name} takes {game.min_players}-{game.max_players} players.", file=sys.stderr)
            return 2
    written = render(args.out, keys, args.players, args.positions)
    print(f"{len(written)} pictures and index.html in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
