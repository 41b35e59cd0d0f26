"""``python -m ledger.cli``: the same command line as ``python cli.py``."""

import sys

from ledger.cli import main

sys.exit(main())
