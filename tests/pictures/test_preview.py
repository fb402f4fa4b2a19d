"""``python -m bot.preview`` writes every game's pictures and a contact sheet that shows them."""

from __future__ import annotations

import re

from PIL import Image

from bot import preview
from bot.pictures.sheet import WIDTH
from bot.registry import with_pictures


def test_the_preview_writes_valid_pictures_and_a_contact_sheet(tmp_path, capsys) -> None:
    (tmp_path / "mu-3p-9-table.png").write_bytes(b"old")  # an earlier run's leftover
    assert preview.main(["--positions", "2", "--out", str(tmp_path)]) == 0
    pngs = sorted(p.name for p in tmp_path.glob("*.png"))
    assert "mu-3p-9-table.png" not in pngs
    for key in with_pictures():
        assert any(name.startswith(f"{key}-") and name.endswith("-table.png") for name in pngs), key
        assert any(name.startswith(f"{key}-") and "-hand" in name for name in pngs), key
    for name in pngs:
        data = (tmp_path / name).read_bytes()
        assert len(data) <= 200_000
        with Image.open(tmp_path / name) as image:
            image.verify()
        with Image.open(tmp_path / name) as image:
            assert image.format == "PNG" and image.width <= WIDTH
    sheet = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert sorted(re.findall(r'<img src="([^"]+)" width="360"', sheet)) == pngs
    assert sheet.count("<figcaption>") == len(pngs) and "Da Capo!, 2 players, position 0: the table" in sheet
    assert f"{len(pngs)} pictures" in capsys.readouterr().out


def test_one_game_at_a_chosen_table_size(tmp_path) -> None:
    assert preview.main(["kapado", "--players", "5", "--positions", "1", "--out", str(tmp_path)]) == 0
    assert [p.name for p in tmp_path.glob("*-table.png")] == ["kapado-5p-0-table.png"]


def test_bad_input_is_explained_and_writes_nothing(tmp_path, capsys) -> None:
    assert preview.main(["calcory", "--out", str(tmp_path)]) == 2
    assert "No pictures for 'calcory'" in capsys.readouterr().err
    assert preview.main(["mu", "--players", "9", "--out", str(tmp_path)]) == 2
    assert "takes 3-6 players" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())
