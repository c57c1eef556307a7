"""``python -m rummy500.server``: the same as ``rummy500 serve``."""

import sys

from rummy500.cli.serve import serve_main

if __name__ == "__main__":
    sys.exit(serve_main(sys.argv[1:]))
