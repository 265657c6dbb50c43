"""The Content-Security-Policy in the browser (issue 22, point 4): the suite's watcher sees a
violation (so its silence on every other test's pages means something), and the pages no other
browser test opens load under the policy without one: the log-in, sign-up and reset pages, the
notification settings with the service worker registered, Swagger UI, the admin's and the
browsable API's log-in pages."""

import pytest
from playwright.sync_api import expect

from tests.factories import DEFAULT_PASSWORD, UserFactory
from tests.web.browser.conftest import Players, serious_violations

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_the_watcher_reports_what_the_policy_blocks(
    players: Players, csp_violations: list[str]
) -> None:
    page = players.new_page(width=390)
    page.goto("/login/")
    page.evaluate(
        """() => {
             const script = document.createElement("script");
             script.textContent = "window.ranInline = true";
             document.body.append(script);
             document.body.insertAdjacentHTML("beforeend", '<img src="https://example.com/x.png">');
             document.body.insertAdjacentHTML("beforeend", '<p style="color: red">x</p>');
           }"""
    )
    page.wait_for_timeout(300)
    assert page.evaluate("() => window.ranInline === undefined")
    seen = "\n".join(csp_violations)
    assert "script-src-elem blocked inline" in seen
    assert "img-src blocked https://example.com/x.png" in seen
    assert "style-src-attr blocked inline" in seen
    csp_violations.clear()  # seen on purpose: the test passes


def test_the_pages_no_other_test_opens_keep_to_the_policy(players: Players) -> None:
    user = UserFactory.create(is_staff=True, is_superuser=True)
    page = players.new_page(width=390)
    for path in ("/signup/", "/password-reset/", "/login/"):
        page.goto(path)
        expect(page.locator("form").first).to_be_visible()
    assert serious_violations(page) == []  # axe, itself loaded under the policy
    page.fill("[name=username]", user.username)
    page.fill("[name=password]", DEFAULT_PASSWORD)
    page.press("[name=password]", "Enter")
    page.wait_for_url("**/")

    page.goto("/notifications/settings/")
    page.evaluate(
        "navigator.serviceWorker.register('/sw.js').then(() => navigator.serviceWorker.ready)"
    )
    page.goto("/notifications/")
    page.goto("/profile/")

    desk = players.new_page()
    desk.goto("/api/docs/")
    expect(desk.locator(".swagger-ui .info .title")).to_contain_text("Canasta Club API")
    desk.goto("/admin/login/")
    desk.goto("/admin/")
    desk.goto("/api-auth/login/")
    desk.wait_for_timeout(300)
