"""Shared pytest setup for host_tests (CPython only). (The top of the tree
is on sys.path through pyproject.toml's `pythonpath`, so `import engine`,
`import firmware` and `import tools...` work from any test.)

- Registers hypothesis profiles and loads one:
    ci  (default): deadline=None, derandomize=True (reproducible runs),
                   no example database, max_examples from
                   $HYPOTHESIS_MAX_EXAMPLES (default 200)
    dev: like ci but random (not derandomized), still no deadline
  Choose with $HYPOTHESIS_PROFILE.
"""

import os

try:
    from hypothesis import settings
except ImportError:  # hypothesis is in requirements.txt; tolerate its absence
    settings = None

if settings is not None:
    _max_examples = int(os.environ.get("HYPOTHESIS_MAX_EXAMPLES", "200"))
    settings.register_profile(
        "ci",
        deadline=None,
        derandomize=True,
        database=None,
        max_examples=_max_examples,
    )
    settings.register_profile(
        "dev",
        deadline=None,
        max_examples=_max_examples,
    )
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
