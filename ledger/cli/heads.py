"""Signed tree heads and consistency proofs (docs/reliability.md; issue 28, item 3):
``key new``, ``consistency`` and ``check-consistency`` (``digest --sign`` is in
``ledger/cli/audit.py``), and ``integrate`` (the tree extended behind the log).

Attached to the group by ``ledger/cli/__init__.py`` (:data:`COMMANDS`).
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from ledger.cli.common import open_ledger, read_input
from ledger.store.base import integrated_behind


@click.group()
def key() -> None:
    """Ed25519 keys that sign the tree heads a tournament or a federation publishes."""


@key.command("new")
@click.argument("keyfile", type=click.Path(dir_okay=False))
def key_new(keyfile: str) -> None:
    """Write a new private key to KEYFILE (mode 0600) and its public key to KEYFILE.pub."""
    from ledger.audit.signing import new_key, public_path

    kid = new_key(Path(keyfile))
    click.echo(f"key {kid} written to {keyfile} (private, mode 0600); "
               f"publish {public_path(Path(keyfile))}")


@click.command()
@click.argument("old")
@click.argument("new")
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None,
              help="Write to this file (default: standard output).")
@click.pass_context
def consistency(ctx: click.Context, old: str, new: str, output: str | None) -> None:
    """The RFC 9162 consistency proof between two published heads OLD and NEW (each a
    digest SIZE:ROOT, or a file holding a digest or a signed head): the older log is a
    prefix of the newer."""
    from ledger.audit.consistency import prove_consistency
    from ledger.audit.signing import read_head

    old_head, _ = read_head(old, "OLD")
    new_head, _ = read_head(new, "NEW")
    with open_ledger(ctx) as ledger:
        proof = prove_consistency(ledger.store, old_head, new_head)
    text = json.dumps(proof, indent=1)
    if output:
        Path(output).write_text(text + "\n", encoding="utf-8")
        click.echo(f"consistency proof from {old_head.short()} to {new_head.short()} "
                   f"({len(proof['proof'])} hash(es)) written to {output}")
    else:
        click.echo(text)


@click.command("check-consistency")
@click.argument("old")
@click.argument("new")
@click.argument("proof_path", metavar="PROOF")
@click.option("--key", "key_path", type=click.Path(dir_okay=False), default=None,
              help="The public key the tournament published (KEYFILE.pub): signed heads must be its.")
@click.pass_context
def check_consistency_cmd(ctx: click.Context, old: str, new: str, proof_path: str, key_path: str | None) -> None:
    """Does PROOF (from `consistency`) show that the log published as OLD is a prefix of
    the log published as NEW? Signed heads are checked too. No database."""
    from ledger.audit.consistency import check_consistency
    from ledger.errors import BadInput
    from ledger.audit.signing import check_head, load_public_key, read_head

    trusted = load_public_key(Path(key_path)) if key_path else None
    heads = [read_head(old, "OLD"), read_head(new, "NEW")]
    text = read_input(proof_path)
    try:
        doc = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        raise BadInput(f"the proof is not readable JSON ({exc})", field="PROOF", value=text[:80]) from None
    problems = []
    signed = [(name, sth) for name, (_, sth) in zip(("OLD", "NEW"), heads) if sth is not None]
    for name, sth in signed:
        problems += [f"{name}: {p}" for p in check_head(sth, trusted)]
    if trusted is None and len({sth.key_id for _, sth in signed}) > 1:
        problems.append("OLD and NEW are signed by different keys")
    problems += check_consistency(heads[0][0], heads[1][0], doc)
    for problem in problems:
        click.echo(f"FAILED: {problem}", err=True)
    if problems:
        ctx.exit(1)
    o, n = heads[0][0], heads[1][0]
    click.echo(f"ok: the log of {o.size} event(s) published as {o.short()} is a prefix of the log of "
               f"{n.size} event(s) published as {n.short()}")
    if signed:
        kid = signed[0][1].key_id
        click.echo(f"ok: {' and '.join(name for name, _ in signed)} signed by key {kid}"
                   + ("" if trusted is not None else
                      " (the key the head carries: pin the tournament's with --key KEYFILE.pub)"))


@click.command()
@click.option("--enable", is_flag=True, help="Switch this database to a tree integrated behind the log "
              "(appends then write no leaf); restart its writers after.")
@click.option("--follow", is_flag=True, help="Keep integrating until interrupted (or --idle).")
@click.option("--poll", type=click.FloatRange(0.01, 60), default=0.2, show_default=True,
              help="With --follow: seconds between rounds.")
@click.option("--idle", type=click.FloatRange(0), default=None,
              help="With --follow: stop after this many seconds with nothing to integrate.")
@click.option("--batch", type=click.IntRange(1, 100_000), default=5000, show_default=True,
              help="Leaves per transaction.")
@click.pass_context
def integrate(ctx: click.Context, enable: bool, follow: bool, poll: float, idle: float | None, batch: int) -> None:
    """Extend the Merkle tree over the events committed since it was last extended, in
    position order (a database whose tree is integrated behind the log; docs/reliability.md).
    One integrator works at a time per database; another one waits its turn."""
    import time

    from ledger.store import integrator

    with open_ledger(ctx) as ledger:
        store = ledger.store
        if enable and not integrated_behind(store):
            integrator.enable(store)
            click.echo("the tree is now integrated behind the log: restart the database's writers", err=True)
        if not integrated_behind(store):
            click.echo("nothing to do: this database's appends extend the tree themselves "
                       "(integrate --enable switches it)", err=True)
            return
        total, quiet_since = 0, time.monotonic()
        while True:
            step = integrator.integrate(store, batch)
            total += step.leaves
            if step.leaves:
                quiet_since = time.monotonic()
            if not follow or (idle is not None and time.monotonic() - quiet_since >= idle):
                break
            time.sleep(poll)
        size = store.tree_size()
    click.echo(f"integrated {total} event(s); the tree holds {size}"
               + ("" if step.elected else " (another integrator is at work)"))


COMMANDS: tuple[click.Command, ...] = (key, consistency, check_consistency_cmd, integrate)
