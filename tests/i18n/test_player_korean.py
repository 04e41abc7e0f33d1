"""No Korean text a player gets leaves a particle in both forms (issue 45, item 3)."""

from __future__ import annotations

import re

# A particle left in parentheses after a word, in either order or alone: "피을(를)", "타로(가)",
# "(으)로". Wider than the pairs the chooser knows, so a form it does not know is caught too.
PARTICLE = "을|를|이|가|은|는|과|와|으로|로|으|아|야|이나|나|이랑|랑|이에요|예요"
BOTH_FORMS = re.compile(rf"(?:{PARTICLE})?\((?:{PARTICLE})\)")
