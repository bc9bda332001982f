"""``python -m clauz3.difftest``: see :mod:`clauz3.difftest.check`."""

import sys

from clauz3.difftest.check import main

sys.exit(main())
