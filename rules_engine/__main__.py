"""`python -m rules_engine ...`: see `rules_engine.cli`."""
import sys

from .cli import main

sys.exit(main())
