import sys

from game_systems.cli import main

sys.exit(main())
