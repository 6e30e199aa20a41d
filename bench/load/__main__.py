"""``python -m bench.load``: the load benchmark (the package's docstring says what it does)."""

import sys

from bench.load.report import main

if __name__ == "__main__":
    sys.exit(main())
