"""Published digests and proofs (docs/reliability.md): ``digest``, ``prove`` and
``check-proof``.

Attached to the group by ``ledger/cli/__init__.py`` (:data:`COMMANDS`).
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from ledger.cli.common import open_ledger, parse_digest, read_input
from ledger.store.base import integrated_behind


@click.command()
@click.option("--json", "as_json", is_flag=True, help="One object: size, root, digest, short.")
@click.option("--sign", "key_path", type=click.Path(dir_okay=False), default=None,
              help="Sign the head with this private key (cli.py key new): a signed tree head (JSON).")
@click.option("--wait", "wait_s", type=click.FloatRange(0, 3600), default=None,
              help="Tree integrated behind the log: first wait at most SECONDS for it to cover every "
                   "event committed now (integrating here when no integrator runs).")
@click.pass_context
def digest(ctx: click.Context, as_json: bool, key_path: str | None, wait_s: float | None) -> None:
    """The Merkle tree head of the whole log, to publish (results sheet, federation).
    The digest goes to stdout, its read-out form to stderr."""
    from ledger.audit.transparency import current_digest

    private = None
    if key_path is not None:
        from ledger.audit.signing import load_private_key

        private = load_private_key(Path(key_path))  # before the store: a bad key is exit 2
    with open_ledger(ctx) as ledger:
        if integrated_behind(ledger.store):  # only integrated sizes are published
            from ledger.store.integrator import integrated_position, wait_integrated

            covered, outside = wait_integrated(ledger.store, wait_s) if wait_s is not None else \
                (integrated_position(ledger.store) >= ledger.store.last_position(), None)
            if not covered:
                click.echo(f"note: {'some' if outside is None else outside} committed event(s) are not "
                           "integrated yet: the digest covers the integrated tree only (cli.py integrate, "
                           "or digest --wait SECONDS)", err=True)
        head = current_digest(ledger.store)
    if private is not None:
        from ledger.audit.signing import sign_head

        sth = sign_head(head, private)
        click.echo(json.dumps(sth.to_json()))  # alone on stdout: digest --sign KEY > head.json
        click.echo(f"{head.size} events; read out: {head.short()}; signed by key {sth.key_id[:16]}… "
                   f"at {sth.to_json()['time']}", err=True)
        return
    if as_json:
        click.echo(json.dumps({"size": head.size, "root": head.root, "digest": str(head),
                               "short": head.short()}))
        return
    click.echo(str(head))  # alone on stdout: D=$(python cli.py digest)
    click.echo(f"{head.size} events; read out: {head.short()}", err=True)


@click.command()
@click.argument("stream")
@click.option("--digest", "digest_text", required=True, help="The published digest to prove against.")
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None,
              help="Write to this file (default: standard output).")
@click.pass_context
def prove(ctx: click.Context, stream: str, digest_text: str, output: str | None) -> None:
    """The inclusion proof of STREAM's events under a published digest (JSON)."""
    from ledger.service import check_stream_id
    from ledger.audit.transparency import prove_stream

    digest = parse_digest(digest_text)
    check_stream_id(stream)
    with open_ledger(ctx) as ledger:
        proof = prove_stream(ledger.store, stream, digest)
    text = json.dumps(proof, indent=1)
    if output:
        Path(output).write_text(text + "\n", encoding="utf-8")
        click.echo(f"proof of {len(proof['events'])} event(s) written to {output}")
    else:
        click.echo(text)


@click.command("check-proof")
@click.argument("casefile_path", metavar="CASEFILE")
@click.option("--digest", "digest_text", required=True, help="The digest the tournament published.")
@click.pass_context
def check_proof_cmd(ctx: click.Context, casefile_path: str, digest_text: str) -> None:
    """Is the board in CASEFILE (HTML or JSON) the one under the published digest? No database."""
    from ledger.casefile import check_rendering
    from ledger.audit.transparency import check_proof, read_casefile

    digest = parse_digest(digest_text)
    text = read_input(casefile_path)
    events, proof = read_casefile(text)
    shown = check_rendering(text)  # first: what the file shows is the rendering of its events
    for problem in shown:
        click.echo(f"FAILED: {problem}", err=True)
    result = check_proof(events, proof, digest)  # then: are those events the published ones?
    for problem in result.problems:
        click.echo(f"FAILED: {problem}", err=True)
    if shown or not result.ok:
        ctx.exit(1)
    click.echo("ok: what the case file shows is the rendering of the events it embeds")
    seqs = result.covered
    click.echo(f"ok: stream {result.stream!r} seq {seqs[0]}-{seqs[-1]} are in the log published as "
               f"{digest.short()} ({len(seqs)} event(s), each recomputed from its content)"
               if seqs else f"ok: no event of {result.stream!r} is under this digest")
    if result.not_covered:
        click.echo(f"not covered: seq {', '.join(map(str, result.not_covered))} appended after "
                   f"the digest was taken ({len(result.not_covered)} event(s) unproved by this "
                   "digest, each placed after it by a consistency proof; a later digest proves them)")
    else:
        click.echo("0 event(s) unproved: every event of the case file is under the digest")



COMMANDS: tuple[click.Command, ...] = (digest, prove, check_proof_cmd)
