"""``python -m datasets.synth``: build the synthetic training sets."""

import sys

from datasets.synth.build import main

sys.exit(main())
