"""Both databases' migrations come from one list (``bot/storage/migrations.py``), and a released migration
never changes: each dialect runs, statement for statement and space for space (SQLite keeps the text
of every CREATE), what it ran when the migration was released. The digests were taken from the two
hand-written lists the single one replaced; a new migration adds its own."""

from __future__ import annotations

import hashlib

from bot.storage import migrations
from bot.storage.database import POSTGRESQL, SQLITE

RELEASED = {
    "sqlite": {
        1: "dbe2cbdf5f8302415d036ae351740d602649ed7b9b72f4b4439ffd09178bb883",
        2: "6ada86b69c95e69cf844433d94ecfd81f682f2566f2918f2906985aebdf397f4",
        3: "a12e53608ba756423ed98adf2464875b757971e6bcb9e3a7ef6cfacd8a32b8af",
        4: "afa85d3ff4c91ac7bfb76213820dc601ae49fd52153b1a22f8c26e5e3dfb813d",
        5: "f8d59a445742b501ad8f59683799962788f494dec0a32e8816501ac0d0d84175",
        6: "6cffd89edd82ca718c9252e8082b9c4f5d3e4b333fc3bd7ca7dd1ce7e9d17b6e",
        7: "46d89565dfdaebda897510d88119b404cca617727f09b2c3d4bcb10357acb969",
        8: "980592814ba6739ccf26df76aba003f54962d1b9824ec73ac99302382f8f06ab",
        9: "169c0e120c3d2a6d6c658d0a94ac8f1eda1af0a86c788156c88a4354212f50ca",
    },
    "postgresql": {
        1: "f4b0ced76494dbfd5b7dfe9aed3710dbb548a406ad79931c010ae7a5c1b8d107",
        2: "6ada86b69c95e69cf844433d94ecfd81f682f2566f2918f2906985aebdf397f4",
        3: "a12e53608ba756423ed98adf2464875b757971e6bcb9e3a7ef6cfacd8a32b8af",
        4: "afa85d3ff4c91ac7bfb76213820dc601ae49fd52153b1a22f8c26e5e3dfb813d",
        5: "e7e25b33350af8b6e598ac2bd93295a21adc5a6fbb4ed9f6781cabc9b3ad7f38",
        6: "c1cbceb393bad426b781f058d4020c084dabf9b585cd1ce8de81de31bf66ed55",
        7: "23a9d8a5a123823d1b283b1c01773c7976341d10ea1ab160d789745ebda2a270",
        8: "d67358c68aeb8306c79d672c6b5fa25bb5a279a056d5f059625bf3e64057ae2b",
        9: "c6b25872d0c102d3f87018198afea989aea449f3016216dcc2f019c2deaa1cce",
    },
}


def digests(rendered: tuple[tuple[int, str, tuple[str, ...]], ...]) -> dict[int, str]:
    return {version: hashlib.sha256("\x00".join((name, *statements)).encode()).hexdigest()
            for version, name, statements in rendered}


def test_each_dialect_runs_what_it_ran_when_each_migration_was_released():
    assert digests(SQLITE.migrations) == RELEASED["sqlite"]
    assert digests(POSTGRESQL.migrations) == RELEASED["postgresql"]


def test_both_dialects_number_and_name_the_migrations_alike():
    names = [(version, name) for version, name, _ in migrations.SCHEMA]
    for dialect in (SQLITE, POSTGRESQL):
        assert [(version, name) for version, name, _ in dialect.migrations] == names
    assert migrations.LATEST == names[-1][0] == len(names)


def test_each_dialect_gets_its_own_words():
    sqlite = "\n".join(s for _, _, statements in SQLITE.migrations for s in statements)
    postgresql = "\n".join(s for _, _, statements in POSTGRESQL.migrations for s in statements)
    assert "guild_id      INTEGER NOT NULL" in sqlite and "guild_id      BIGINT  NOT NULL" in postgresql
    assert "WITHOUT ROWID" in sqlite and "WITHOUT ROWID" not in postgresql
    assert "LANGUAGE plpgsql" in postgresql and "plpgsql" not in sqlite
    assert "{" not in postgresql.replace("'{}'", "")  # every field was filled in
