"""`python -m hookwrap`: the same CLI as the `hookwrap` command."""

import sys

from .console.app import main

sys.exit(main())
