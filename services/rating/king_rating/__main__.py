"""``python -m king_rating`` is ``python -m king_rating.run``."""

import sys

from king_rating.run import main

sys.exit(main())
