"""`python -m glmagent`."""

import sys

from glmagent.cli import main

sys.exit(main())
