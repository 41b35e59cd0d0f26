"""``cli.py backup DEST`` and ``cli.py restore SOURCE``: a second copy of a SQLite
ledger (``ledger/backup.py``; docs/reliability.md, "A second copy").

Attached to the group by ``ledger/cli/__init__.py`` (:data:`COMMANDS`).
"""

from __future__ import annotations

import click

from ledger.cli.common import parse_digest


@click.command("backup")
@click.argument("dest")
@click.option("--force", is_flag=True, help="Overwrite DEST if it exists.")
@click.pass_context
def backup_cmd(ctx: click.Context, dest: str, force: bool) -> None:
    """Copy the SQLite ledger to DEST (SQLite's online backup: servers may keep appending),
    then verify the copy and print its digest."""
    from ledger.backup import backup, check

    done = backup(ctx.obj["db"], dest, force=force)
    report, (_against, head) = check(f"sqlite:///{done['dest']}")
    if report.problems:
        for p in report.problems:
            click.echo(f"FAILED: {p.where()} ({p.kind}): {p.reason}", err=True)
        click.echo(f"the copy at {dest} does not verify: the ledger itself may be damaged; run "
                   "`python cli.py verify`", err=True)
        ctx.exit(1)
    click.echo(f"backup written to {dest}: {done['bytes']} bytes in {done['seconds']} s; "
               f"{report.events} event(s) in {report.streams} stream(s), verified; digest {head} "
               f"(read out {head.short()})")


@click.command("restore")
@click.argument("source")
@click.option("--digest", "digest_text", default=None,
              help="The last published digest: the backup must hold what it covered.")
@click.option("--force", is_flag=True, help="Restore even if the backup does not verify.")
@click.pass_context
def restore_cmd(ctx: click.Context, source: str, digest_text: str | None, force: bool) -> None:
    """Put the backup SOURCE in place of the SQLite ledger (stop the servers first). The
    backup is verified first (with --digest, against the published digest); the current
    file is kept aside, renamed, never deleted."""
    from ledger.backup import restore

    digest = parse_digest(digest_text) if digest_text else None
    done = restore(ctx.obj["db"], source, digest=digest, force=force)
    for kept in done["kept_aside"]:
        click.echo(f"kept aside: {kept}")
    report = done["report"]
    against, head = done["against"]
    for p in report.problems:
        click.echo(f"FAILED: {p.where()} ({p.kind}): {p.reason}", err=True)
    if report.problems:
        ctx.exit(1)
    click.echo(f"restored {done['restored']} from {source}: {report.events} event(s) in "
               f"{report.streams} stream(s), verified; digest {head}")
    if against is not None and digest is not None:
        click.echo(f"ok: the restored ledger holds exactly the {digest.size} event(s) digest "
                   f"{digest.short()} covered; {against.size - digest.size} appended after it")


COMMANDS: tuple[click.Command, ...] = (backup_cmd, restore_cmd)
