"""`python -m reprolint`."""

import sys

from reprolint.cli import main

sys.exit(main())
