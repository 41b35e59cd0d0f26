"""What a tamperer with database rights does to the store (tests only): each
function first drops the append-only triggers, as such a tamperer would."""

from __future__ import annotations

import json
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


def drop_tree_triggers(conn: sa.Connection) -> None:
    for table in ("merkle_leaves", "merkle_nodes"):
        if conn.dialect.name == "sqlite":
            for name in (f"{table}_no_update", f"{table}_no_delete"):
                conn.exec_driver_sql(f"DROP TRIGGER IF EXISTS {name}")
        else:
            conn.exec_driver_sql(f"DROP TRIGGER IF EXISTS {table}_no_update_delete ON {table}")
            conn.exec_driver_sql(f"DROP TRIGGER IF EXISTS {table}_no_truncate ON {table}")


def rewrite_history(url: str, stream: str, seq: int, data: dict[str, Any] | None = None,
                    *, truncate_after: int | None = None) -> None:
    """The perfect tamperer: change an event (or cut the stream's tail), then
    recompute every later hash of its chain, the stream's head, and the whole
    Merkle tree, so that everything inside the store agrees again."""
    from ledger.audit import merkle
    from ledger.hashing import canonical_json, event_hash

    engine = sa.create_engine(url)
    try:
        with engine.begin() as conn:
            drop_append_only_triggers(conn)
            drop_tree_triggers(conn)
            if truncate_after is not None:
                conn.execute(sa.text("DELETE FROM events WHERE stream = :s AND seq > :q"),
                             {"s": stream, "q": truncate_after})
            rows = conn.execute(sa.text("SELECT * FROM events WHERE stream = :s ORDER BY seq"),
                                {"s": stream}).mappings().all()
            prev = "0" * 64
            for row in rows:
                row = dict(row)
                body = json.loads(row["data"])
                if row["seq"] == seq and data is not None:
                    body = data
                h = event_hash(row["stream"], row["seq"], row["id"], row["type"], row["v"], body,
                               {"role": row["actor_role"], "name": row["actor_name"]}, row["at"],
                               json.loads(row["causes"]), row["law"], prev)
                conn.execute(sa.text("UPDATE events SET data = :d, prev = :p, hash = :h "
                                     "WHERE position = :pos"),
                             {"d": canonical_json(body), "p": prev, "h": h, "pos": row["position"]})
                prev = h
            conn.execute(sa.text("UPDATE stream_heads SET seq = :q, hash = :h WHERE stream = :s"),
                         {"q": rows[-1]["seq"], "h": prev, "s": stream})
            conn.execute(sa.text("DELETE FROM snapshots WHERE stream = :s"), {"s": stream})
            conn.exec_driver_sql("DELETE FROM merkle_leaves")
            conn.exec_driver_sql("DELETE FROM merkle_nodes")
            events = conn.execute(sa.text("SELECT position, stream, seq, hash FROM events "
                                          "ORDER BY position")).all()
            leaves = [merkle.leaf_hash(h) for _, _, _, h in events]
            for i, (position, name, number, _) in enumerate(events):
                conn.execute(sa.text("INSERT INTO merkle_leaves (leaf_index, position, stream, seq, hash) "
                                     "VALUES (:i, :p, :s, :q, :h)"),
                             {"i": i, "p": position, "s": name, "q": number, "h": leaves[i].hex()})
            for (level, index), h in merkle.all_perfect(leaves).items():
                if level:
                    conn.execute(sa.text("INSERT INTO merkle_nodes (level, node_index, hash) "
                                         "VALUES (:l, :i, :h)"), {"l": level, "i": index, "h": h.hex()})
    finally:
        engine.dispose()
