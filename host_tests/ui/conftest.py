"""Every UI test also holds the words it shows to the panel (fit.py): a
text drawn past the panel's edge, or a message that loses lines, fails
the test that showed it."""

import pytest

from fit import Fit


@pytest.fixture(autouse=True)
def words_fit():
    with Fit() as fit:
        yield fit
    assert not fit.found, fit.report()
