"""`python -m xhip.cli`: the `xhip` command."""

import sys

from xhip.cli import main

sys.exit(main())
