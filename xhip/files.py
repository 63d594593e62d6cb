"""The names of the files a compiled model comes with.

A module of its own so that the command line can name them in its help
without importing the hip dialect (`xhip --help` imports no xDSL).
"""

CONSTANTS_FILE = "model.constants.bin"
"""The file the externalized constants are written to, in the output directory
(its layout: docs/constants-file.md)."""
