"""What a tamperer with database rights does to the store (tests only): each
function first drops the append-only triggers, as such a tamperer would."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

COLUMNS = ("stream", "seq", "id", "type", "v", "data", "actor_role", "actor_name", "at", "causes",
           "law", "prev", "hash")


def drop_append_only_triggers(conn: sa.Connection) -> None:
    """What a tamperer with database rights does first (again and again: IF EXISTS)."""
    if conn.dialect.name == "sqlite":
        for name in ("events_no_update", "events_no_delete"):
            conn.exec_driver_sql(f"DROP TRIGGER IF EXISTS {name}")
    else:
        conn.exec_driver_sql("DROP TRIGGER IF EXISTS events_no_update_delete ON events")
        conn.exec_driver_sql("DROP TRIGGER IF EXISTS events_no_truncate ON events")


def tamper(url: str, sql: str, **params: Any) -> None:
    """Run one statement with the triggers dropped."""
    engine = sa.create_engine(url)
    try:
        with engine.begin() as conn:
            drop_append_only_triggers(conn)
            conn.execute(sa.text(sql), params)
    finally:
        engine.dispose()


def column(url: str, name: str, stream: str, seq: int) -> Any:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            return conn.execute(sa.text(f"SELECT {name} FROM events WHERE stream = :s AND seq = :q"),
                                {"s": stream, "q": seq}).scalar_one()
    finally:
        engine.dispose()


def swap_rows(url: str, stream: str, seq_a: int, seq_b: int) -> None:
    """The two events trade places in the log: each row is stored again at the
    other's position (everything else as it was)."""
    engine = sa.create_engine(url)
    cols = ", ".join(COLUMNS)
    try:
        with engine.begin() as conn:
            drop_append_only_triggers(conn)
            rows = {seq: conn.execute(sa.text(f"SELECT position, {cols} FROM events "
                                              "WHERE stream = :s AND seq = :q"),
                                      {"s": stream, "q": seq}).one()._asdict()
                    for seq in (seq_a, seq_b)}
            conn.execute(sa.text("DELETE FROM events WHERE stream = :s AND seq IN (:a, :b)"),
                         {"s": stream, "a": seq_a, "b": seq_b})
            rows[seq_a]["position"], rows[seq_b]["position"] = (rows[seq_b]["position"],
                                                                rows[seq_a]["position"])
            overriding = " OVERRIDING SYSTEM VALUE" if conn.dialect.name == "postgresql" else ""
            for row in rows.values():
                conn.execute(sa.text(f"INSERT INTO events (position, {cols}){overriding} VALUES "
                                     f"(:position, {', '.join(':' + c for c in COLUMNS)})"), row)
    finally:
        engine.dispose()
