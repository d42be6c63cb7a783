"""Fixtures for the web handheld's tests (web).

The page is built once per session into a temporary folder, served on
127.0.0.1 (an ephemeral port), and driven in one headless Chromium (Debian's
chromium through playwright-core, web/driver.mjs).

No Chromium (or node, or playwright-core): the browser tests fail when
CI=true (.ci/run installs chromium, so CI must have it) and are skipped with
the reason otherwise.
"""

import os

import pytest

from web import browser as wb


def require_browser():
    why = wb.missing()
    if why is None:
        return
    if os.environ.get("CI") == "true":
        pytest.fail("the web tests need a browser: %s" % why, pytrace=False)
    pytest.skip("no browser for the web tests: %s" % why)


@pytest.fixture(scope="session")
def web_dir(tmp_path_factory):
    from tools.web import build

    out = tmp_path_factory.mktemp("web")
    build.build(str(out), quiet=True)
    return str(out)


@pytest.fixture(scope="session")
def site(web_dir):
    with wb.serve(web_dir) as url:
        yield url


@pytest.fixture(scope="session")
def _browser_session():
    require_browser()
    b = wb.Browser()
    yield b
    b.close()


@pytest.fixture
def browser(_browser_session):
    return _browser_session
