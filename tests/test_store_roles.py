"""The store typed by role (issue 29, items 4 and 5): the SQL store has every role of
``ledger.store.base`` on both backends; a store without an optional role is answered
the plain way (no batch, no board index, no integration); and the rooms of
``ledger/store`` keep their layering (the backends and the tree never import the common
store at run time; its public names still import from ``ledger.store.sql``)."""

from __future__ import annotations

import ast
import random
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

import ledger.store.sql as sql
from ledger.errors import StoreUnavailable
from ledger.service import Ledger
from ledger.simulate import random_board
from ledger.store import integrator
from ledger.store.base import (Batching, BoardIndex, BoardIndexing, SqlBacked, TreeIntegration, Warming,
                               integrated_behind)
from ledger.store.sql import SqlEventStore
from ledger.tournament import board_streams

STORE = Path(sql.__file__).parent


class Only:
    """``inner`` seen through ``roles`` only: every other attribute hidden."""

    def __init__(self, inner: Any, roles: tuple[str, ...]) -> None:
        self._inner, self._roles = inner, roles

    def __getattr__(self, name: str) -> Any:
        if name not in self._roles:
            raise AttributeError(name)
        return getattr(self._inner, name)


class Plain(Only):
    """The SQL store seen through the ``EventStore`` protocol only: every optional role
    hidden, its transactions seen through ``StoreTransaction`` only (no ``index_board``)."""

    def __init__(self, store: SqlEventStore) -> None:
        super().__init__(store, ("url", "read", "read_after", "iter_all", "streams", "last_position",
                                 "iter_raw", "heads", "load_snapshot", "latest_snapshot", "save_snapshot",
                                 "close", "tree_size", "tree_nodes", "leaf_indexes", "iter_tree"))

    @contextmanager
    def transaction(self, stream: str) -> Iterator[Any]:
        with self._inner.transaction(stream) as tx:
            yield Only(tx, ("stream", "head", "find_ids", "read", "load_snapshot", "latest_snapshot",
                            "insert", "save_snapshot"))


def test_the_sql_store_has_every_role_and_its_appends_index_boards(store: SqlEventStore) -> None:
    for role in (Batching, BoardIndex, SqlBacked, TreeIntegration, Warming):
        assert isinstance(store, role), role.__name__
    with store.transaction("club/t1/b1") as tx:
        assert isinstance(tx, BoardIndexing)
    assert not integrated_behind(store)


def test_a_store_without_the_optional_roles_is_answered_the_plain_way(store: SqlEventStore) -> None:
    with Ledger(store) as full:
        for n in (1, 2):
            board = random_board(random.Random(n), tournament="Paris", board=n, pass_out=0.0)
            full.append(f"paris/b{n}", board.facts)
        indexed = board_streams(full, "Paris")
    plain = Plain(store)
    for role in (Batching, BoardIndex, SqlBacked, TreeIntegration, Warming):
        assert not isinstance(plain, role), role.__name__
    assert not integrated_behind(plain)
    with pytest.raises(StoreUnavailable, match="cannot integrate"):
        integrator.enable(plain)  # type: ignore[arg-type]  # Plain is duck-typed, not an EventStore class
    ledger = Ledger(plain)  # type: ignore[arg-type]
    assert indexed == ["paris/b1", "paris/b2"]
    assert board_streams(ledger, "Paris") == indexed  # from every stream's first event, not the index
    board = random_board(random.Random(3), tournament="Paris", board=3, pass_out=0.0)
    with ledger.batch(["paris/b3"], deferred=True) as staged:  # no batches: each append commits alone
        assert staged is None
        ledger.append("paris/b3", board.facts)
    assert store.heads("paris/b3")[0].seq == len(store.read("paris/b3")) > 0
    assert store.boards("paris") == [("paris/b1", "Paris"), ("paris/b2", "Paris")]  # no index_board call
    assert board_streams(ledger, "Paris") == ["paris/b1", "paris/b2", "paris/b3"]


def test_integration_behind_is_the_stores_role(store: SqlEventStore) -> None:
    integrator.enable(store)
    assert integrated_behind(store)
    assert integrator.integrated_position(store) == 0


def _runtime_imports(path: Path) -> set[str]:
    """The modules ``path`` imports outside ``if TYPE_CHECKING:`` blocks."""
    tree = ast.parse(path.read_text())
    skipped = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If)
               and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"
               for n in ast.walk(node)}
    found = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
    return found


@pytest.mark.parametrize("room", ["statements", "tree", "sqlite", "postgres", "transactions"])
def test_the_rooms_below_the_common_store_never_import_it(room: str) -> None:
    imports = _runtime_imports(STORE / f"{room}.py")
    assert "ledger.store.sql" not in imports
    below = {"statements": set(), "tree": set(), "sqlite": {"statements", "tree"},
             "postgres": {"statements", "tree"},
             "transactions": {"statements", "tree", "sqlite", "postgres"}}[room]
    rooms = {m.rsplit(".", 1)[1] for m in imports if m in {f"ledger.store.{r}" for r in
                                                          ("statements", "tree", "sqlite", "postgres",
                                                           "transactions")}}
    assert rooms <= below, f"{room} imports {rooms - below}"


def test_the_common_store_keeps_the_public_names() -> None:
    for name in sql.__all__:
        assert getattr(sql, name) is not None, name
    assert "type: ignore" not in "".join(p.read_text() for p in STORE.glob("*.py"))
