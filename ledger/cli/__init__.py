"""The command line of spec section 8 (``python cli.py ...`` or ``ledger ...``).

This module holds the group (``--db``, ``--log-level``, ``--busy-timeout``) and
:func:`main`; the commands live one module per family and are attached below
(:data:`COMMAND_MODULES`): each imports only ``ledger.cli.common`` of the package.

Errors go to stderr with the exit codes of the spec, mapped in one place
(:func:`main`): 2 bad input, 3 concurrency conflict, 4 permission, 5 store busy
(retry), 1 other.
structlog is configured here, once: a console renderer on a terminal, JSON
lines otherwise; logs go to stderr so that stdout stays the command's output.
"""

from __future__ import annotations

import logging
import os
import sys
from types import ModuleType
from typing import Any

import click
import structlog

from ledger.cli import audit, backup, bench, director, event, federation, heads, live, log, records
from ledger import damage
from ledger.errors import LedgerError, StoreUnavailable

DEFAULT_DB = "sqlite:///ledger.db"


def configure_logging(level: str | None = None) -> None:
    level_name = (level or os.environ.get("LEDGER_LOG_LEVEL", "WARNING")).upper()
    renderer: Any
    if sys.stderr.isatty():
        renderer = structlog.dev.ConsoleRenderer()
    else:
        renderer = structlog.processors.JSONRenderer()
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(getattr(logging, level_name, logging.WARNING)),
        logger_factory=_stderr_logger,  # sys.stderr as it is when a line is logged
        cache_logger_on_first_use=False,
    )


def _stderr_logger(*_args: Any) -> structlog.PrintLogger:
    """A logger on the standard error of the moment (not the one of the first call: a
    program, or a test, may have replaced it since, and the old one may be closed)."""
    return structlog.PrintLogger(file=sys.stderr)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--db", envvar="LEDGER_DB", default=DEFAULT_DB, show_default=True,
              help="Database URL: sqlite:///FILE or postgresql+psycopg://USER@HOST/DB ($LEDGER_DB).")
@click.option("--log-level", default=None, help="structlog level (default WARNING, $LEDGER_LOG_LEVEL).")
@click.option("--busy-timeout", type=click.FloatRange(min=0), envvar="LEDGER_BUSY_TIMEOUT",
              default=30.0, show_default=True,
              help="Seconds to wait for other writers' locks; then exit 5 (busy: retry).")
@click.pass_context
def cli(ctx: click.Context, db: str, log_level: str | None, busy_timeout: float) -> None:
    """A tournament ruling ledger for duplicate bridge."""
    configure_logging(log_level)
    ctx.ensure_object(dict)
    ctx.obj["db"] = db
    ctx.obj["busy_timeout"] = busy_timeout
    ctx.obj["db_given"] = ctx.get_parameter_source("db") is not click.core.ParameterSource.DEFAULT


COMMAND_MODULES = (
    log,  # init append state log verify replay rebuild casefile demo
    audit,  # digest prove check-proof (docs/reliability.md)
    heads,  # key consistency check-consistency (signed heads, docs/reliability.md)
    records,  # import export analyse (docs/records.md)
    director,  # results open (docs/director.md)
    bench,  # bench bench-live
    live,  # user session serve (the live service)
    event,  # register players boards swiss print (a whole event: docs/director.md)
    federation,  # export-results appeals casebook casefile-pdf casefile-import (docs/federation.md)
    backup,  # backup restore (docs/reliability.md, "A second copy")
)
"""The modules whose ``COMMANDS`` the group carries, one line each."""


def _attach(group: click.Group, modules: tuple[ModuleType, ...]) -> None:
    """Add every command a module lists in its ``COMMANDS`` to the group."""
    for module in modules:
        for command in module.COMMANDS:
            group.add_command(command)


_attach(cli, COMMAND_MODULES)


def _db_of(argv: list[str] | None) -> str:
    """The ``--db`` a command line names (else ``$LEDGER_DB``, else the default): the file
    the words about a damaged store or a full disk name."""
    args = list(sys.argv[1:] if argv is None else argv)
    for i, arg in enumerate(args):
        if arg == "--db" and i + 1 < len(args):
            return args[i + 1]
        if arg.startswith("--db="):
            return arg[5:]
    return os.environ.get("LEDGER_DB") or DEFAULT_DB


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit code (spec section 8)."""
    try:
        rv = cli.main(args=argv, prog_name="cli.py", standalone_mode=False)
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except click.ClickException as exc:
        exc.show()
        return 2
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        return 1
    except LedgerError as exc:
        # a damaged file or a full disk, in words (the store's failure, not a finding about it)
        said = damage.describe(exc, _db_of(argv)) if isinstance(exc, StoreUnavailable) else None
        click.echo(f"error: {said or exc}", err=True)
        return exc.exit_code
    except Exception as exc:  # never a traceback: a damaged store, a full disk, or a fault
        said = damage.describe(exc, _db_of(argv))
        if said is None:
            first = (str(exc).strip().splitlines() or [""])[0][:300]
            said = (f"unexpected failure ({type(exc).__name__}: {first}); nothing more was written "
                    "than the command reported. Run with --log-level debug for the details.")
            structlog.get_logger("ledger.cli").debug("unexpected_failure", exc_info=True)
        click.echo(f"error: {said}", err=True)
        return 1
    return rv if isinstance(rv, int) else 0
