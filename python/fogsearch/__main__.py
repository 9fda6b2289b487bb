"""``python -m fogsearch``: the command line."""

import sys

from fogsearch.cli import main

sys.exit(main())
