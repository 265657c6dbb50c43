"""Browser tests: Playwright driving Debian's Chromium against uvicorn serving the club's ASGI
application (pages, static files and the event streams) on the real PostgreSQL and Redis.

`make test` installs the `chromium` package when it is missing (scripts/browser.sh). A failing
test leaves a screenshot of every page it opened in var/test-artifacts/ (the path is printed).

Every page of every browser context a test opens (through `players` or pytest-playwright's own
fixtures alike) is watched for Content-Security-Policy violations: one fails the test
(`csp_violations`, automatic).
"""

import os
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from django.conf import settings
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
from django.db import connection
from playwright.sync_api import Browser, BrowserContext, Page

# Playwright's sync API runs an event loop in the test thread; Django's ORM there is fine.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(settings.BASE_DIR) / "var" / "test-artifacts"
# Screenshots of the pages as the tests leave them, to look at.
LOOK = ARTIFACTS / "look"
# Served as the club's own static file, so the page's CSP lets it in like the page's scripts.
AXE = "/static/web/vendor/axe-core-4.14.1/axe.min.js"
# Each page reports the violations of its CSP to the test (Chromium also logs them).
REPORT_CSP_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (event) => {
  window.__cspViolation(`${event.effectiveDirective} blocked ${event.blockedURI || "inline"}`
    + ` at ${event.sourceFile || event.documentURI}:${event.lineNumber} (${event.sample})`);
}, true);
"""


@pytest.fixture(scope="session")
def browser_type_launch_args() -> dict[str, Any]:
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: run scripts/browser.sh (make test does)")
    return {"executable_path": CHROMIUM, "args": ["--no-sandbox"]}


class ClubServer(threading.Thread):
    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.socket = socket.socket()
        self.socket.bind(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.socket.getsockname()[1]}"
        from canasta_club.asgi import application

        app = ASGIStaticFilesHandler(application)  # type: ignore[arg-type]  # any ASGI app
        config = uvicorn.Config(
            app, log_level="warning", lifespan="off", timeout_graceful_shutdown=1
        )
        self.server = uvicorn.Server(config)

    def run(self) -> None:
        self.server.run(sockets=[self.socket])

    def stop(self) -> None:
        self.server.should_exit = True
        self.join(timeout=10)


@pytest.fixture
def club_server(transactional_db: None) -> Iterator[str]:
    """The club's base URL, served by uvicorn in this process (so clock.advance reaches it)."""
    server = ClubServer()
    server.start()
    deadline = time.monotonic() + 10
    while not server.server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.02)
    yield server.url
    server.stop()
    # The server's threads kept their database connections; the test database must be free
    # to flush and, at the end, to drop.
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


class Players:
    """Browser contexts, one per player; screenshots of their pages if the test fails."""

    def __init__(self, browser: Browser, base_url: str) -> None:
        self.browser = browser
        self.base_url = base_url
        self.contexts: list[BrowserContext] = []

    def new_page(self, *, width: int = 1440, height: int = 900) -> Page:
        context = self.browser.new_context(
            base_url=self.base_url, viewport={"width": width, "height": height}, locale="ru-RU"
        )
        self.contexts.append(context)
        return context.new_page()

    def screenshots(self, name: str) -> Path:
        folder = ARTIFACTS / name
        folder.mkdir(parents=True, exist_ok=True)
        for index, context in enumerate(self.contexts):
            for number, page in enumerate(context.pages):
                if not page.is_closed():
                    page.screenshot(
                        path=str(folder / f"player{index}-page{number}.png"), full_page=True
                    )
        return folder


@pytest.fixture
def players(
    browser: Browser, club_server: str, request: pytest.FixtureRequest
) -> Iterator[Players]:
    crowd = Players(browser, club_server)
    yield crowd
    report = getattr(request.node, "report_call", None)
    if report is not None and report.failed:
        folder = crowd.screenshots(request.node.name)
        print(f"\nScreenshots of the failing test's pages: {folder}")
    for context in crowd.contexts:
        context.close()


@pytest.fixture(autouse=True)
def csp_violations(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every browser context made during the test reports its pages' CSP violations here; any
    one fails the test when it ends."""
    violations: list[str] = []
    new_context = Browser.new_context

    def watched_context(browser: Browser, *args: Any, **kwargs: Any) -> BrowserContext:
        context = new_context(browser, *args, **kwargs)
        context.expose_binding(
            "__cspViolation",
            lambda source, text: violations.append(f"{source['page'].url}: {text}"),
        )
        context.add_init_script(REPORT_CSP_VIOLATIONS)
        context.on(
            "console",
            lambda message: (
                violations.append(f"{message.page.url if message.page else ''}: {message.text}")
                if "Content Security Policy" in message.text
                else None
            ),
        )
        return context

    monkeypatch.setattr(Browser, "new_context", watched_context)
    yield violations
    if violations:
        pytest.fail("Content-Security-Policy violations:\n" + "\n".join(violations))


def serious_violations(page: Page) -> list[dict[str, Any]]:
    """axe-core (vendored) on the page: violations of serious or critical impact."""
    page.add_script_tag(url=AXE)
    result = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    return [
        {"id": v["id"], "impact": v["impact"], "nodes": [n["target"] for n in v["nodes"]][:5]}
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def horizontal_overflow(page: Page) -> int:
    """How many pixels the page scrolls sideways (0: none)."""
    return int(
        page.evaluate(
            "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
    )


_SMALL_TARGETS = """({within, aside}) => {
  const small = [];
  const controls = document.querySelectorAll(['a', 'button', 'summary', 'select',
    'input:not([type=hidden])'].map((kind) => `${within} ${kind}`).join(', '));
  for (const el of controls) {
    if (el.closest(aside)) continue;
    // A radio's or a checkbox's target is its label (pressing it presses them).
    const target = (el.matches('[type=radio], [type=checkbox]') && el.closest('label')) || el;
    const box = target.getBoundingClientRect();
    if (!box.width || !box.height) continue;  // not shown
    const long = Math.max(box.width, box.height), short = Math.min(box.width, box.height);
    const size = `${Math.round(box.width)}x${Math.round(box.height)}`;
    const name = el.textContent.trim().slice(0, 30);
    if (long < 44 || short < 24) small.push(`${el.tagName} ${name} ${size}`);
  }
  return small;
}"""


def small_targets(page: Page, *, within: str, aside: str) -> list[str]:
    """The controls in `within` smaller than 44 px one way or 24 px the other (WCAG 2.5.8 and the
    platforms' 44-point guidance), but for those in `aside` (links inside a sentence, hidden
    text): each as its tag, name and size."""
    return list(page.evaluate(_SMALL_TARGETS, {"within": within, "aside": aside}))


def shoot(page: Page, name: str) -> None:
    """A full-page screenshot in var/test-artifacts/look/ (`name`.png)."""
    LOOK.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(LOOK / f"{name}.png"), full_page=True)
