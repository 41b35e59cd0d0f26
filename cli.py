"""Entry point: ``python cli.py [--db URL] COMMAND ...`` (see ``--help``)."""

import sys

from ledger.cli import main

if __name__ == "__main__":
    sys.exit(main())
