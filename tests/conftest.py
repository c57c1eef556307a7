"""Test-suite wide settings.

Under CI (``CI`` set) Hypothesis runs derandomized, so a submission's result
does not depend on the examples one run happens to draw; locally it explores
fresh examples every run. Either way a failure prints its falsifying example.
"""

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("dev", deadline=None, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "dev")
