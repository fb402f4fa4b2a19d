"""Every game's renderings, pinned: seeded positions of each game and the end of that game, rendered
as they go over the wire (the table, every seat's hand in its first in-hand steps, the move's public
line and summary, in English and German, with pictures and without), must hash to what
``renderings.json`` recorded.

The rendering code is tuned for speed (the bot renders every open hand on every move); this proves
such work changes nothing a player sees. A deliberate change of what a message shows re-records the
file: ``python -m tests.ui.test_renderings_pinned`` (and the diff of the file says which renderings
changed).
"""

from __future__ import annotations

import hashlib
import io
import json
import random
from pathlib import Path

from PIL import Image

import games
from bot.play.sessions import Status
from bot.registry import hand_summary, playable, presenter
from tests.ui import kit

PINNED = Path(__file__).with_name("renderings.json")
#: Positions per game, the random moves between them, and the in-hand steps rendered per hand.
POSITIONS = 4
STRIDE = {"calcory": 3, "mu": 9, "safaru": 4, "rummu": 7, "dacapo": 11, "skippo": 11, "kapado": 9,
          "diabolo": 5}
STEPS = 4
#: Random moves at most before the end of a game is rendered (a game that has not ended by then is
#: rendered where it stands).
MAX_MOVES = 3000
LANGS = ("en", "de")


def _digest(payload) -> str:
    return hashlib.sha256(json.dumps(payload, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:20]


def _wire(rendered) -> str:
    """The body as sent (text, components, attachment names, alt texts), each picture's name (which
    carries a hash of its PNG bytes) replaced by a hash of what it shows: its size, palette and
    pixels. How a picture is encoded may change; what it shows may not."""
    wire = json.dumps(kit.body(rendered), sort_keys=True, ensure_ascii=False)
    for picture in rendered.pictures:
        wire = wire.replace(picture.name, f"picture-{_pixels(picture.png)}")
    return wire


def _pixels(png: bytes) -> str:
    with Image.open(io.BytesIO(png)) as image:
        shown = [image.size, image.mode, image.getpalette(), image.tobytes().hex()]
    return hashlib.sha256(json.dumps(shown).encode()).hexdigest()[:20]


def renderings(key: str) -> dict[str, str]:
    """``{what: hash}`` for the seeded positions of one game, and for the end of that game."""
    game = games.REGISTRY[key]
    players = max(game.min_players, min(4, game.max_players))
    rng = random.Random(f"pinned:{key}")
    session = kit.make_session(key, players, seed=f"pinned-{key}")
    events: list = []
    out: dict[str, str] = {}
    for position in range(POSITIONS):
        _position(session, events, str(position), out)
        if session.status is not Status.PLAYING:
            return out
        events = kit.random_walk(session, rng, STRIDE[key])
    while session.status is Status.PLAYING and len(session.history) < MAX_MOVES:
        events = kit.random_walk(session, rng, 1)
    _position(session, events, "end", out)
    return out


def _position(session, events: list, position: str, out: dict[str, str]) -> None:
    key = session.game.key
    show = presenter(key)
    for lang, pictures in ((lang, pictures) for lang in LANGS for pictures in (True, False)):
        session.pictures = pictures
        at = f"{key}/{position}/{lang}" + ("" if pictures else "/text")
        out[f"{at}/table"] = _digest([_wire(r) for r in show.table(session, lang, f"line {position}")])
        out[f"{at}/describe"] = _digest([show.describe(session, events, lang),
                                         hand_summary(key, session, events, lang)])
        for seat in range(len(session.seats)):
            for ui in kit.hand_states(session, seat, lang)[:STEPS]:
                out[f"{at}/hand/{seat}/{ui}"] = _digest(_wire(show.hand(session, seat, lang, ui, None)))
            out[f"{at}/notice/{seat}"] = _digest(_wire(show.hand(session, seat, lang, "", "a notice")))


def test_every_rendering_is_as_pinned() -> None:
    pinned = json.loads(PINNED.read_text())
    assert sorted(pinned) == sorted(playable())
    for key in playable():
        now = renderings(key)
        changed = sorted(what for what in set(now) | set(pinned[key]) if now.get(what) != pinned[key].get(what))
        assert not changed, f"{key}: {len(changed)} renderings differ from the pinned ones, e.g. {changed[:5]}"


def main() -> None:
    """Re-record the pinned renderings (only for a deliberate change of what messages show)."""
    PINNED.write_text(json.dumps({key: renderings(key) for key in playable()}, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
