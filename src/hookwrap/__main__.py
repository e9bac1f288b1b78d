"""`python -m hookwrap`: the same CLI as the `hookwrap` command."""

import sys

from .cli import main

sys.exit(main())
