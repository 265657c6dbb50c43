"""The live seat: an open table page keeps it present, a closed tab starts R-CLUB-2's 60-second
wait, and reopening the page reclaims the seat. The event stream carries versions only."""

import time
from datetime import timedelta
from typing import Any

import pytest
import requests
from django.conf import settings
from django.test import Client
from playwright.sync_api import Page, expect

from club import clock
from games.models import Game, Seat
from games.services import presence
from tests.factories import UserFactory, started_game
from tests.web.browser.conftest import Players
from web.table import events

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def session_cookie(user: object) -> dict[str, str]:
    client = Client()
    client.force_login(user)  # type: ignore[arg-type]
    return {settings.SESSION_COOKIE_NAME: client.cookies[settings.SESSION_COOKIE_NAME].value}


def test_a_closed_tab_is_waited_for_and_the_seat_reclaimed(
    players: Players, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The open streams' seats are marked seen every PRESENCE_SECONDS; a fraction of a second here.
    monkeypatch.setattr(events, "PRESENCE_SECONDS", 0.2)
    people = UserFactory.create_batch(4)
    game = started_game(players=people, mode=Game.Mode.LIVE)
    seat = Seat.objects.get(game=game, user=people[1])
    page = players.new_page()
    page.context.add_cookies(
        [
            {"name": k, "value": v, "url": players.base_url}
            for k, v in session_cookie(people[1]).items()
        ]
    )
    page.goto(f"/games/{game.pk}/")
    expect(page.locator("[data-reconnecting]")).to_be_hidden()
    time.sleep(0.5)  # the stream is open

    clock.advance(timedelta(seconds=61))
    time.sleep(0.6)  # the open stream marks the seat seen on the club's (advanced) clock
    presence.mark_absences()
    seat.refresh_from_db()
    assert not seat.is_absent, "an open page keeps the live seat present"

    page.close()
    time.sleep(0.6)  # the server notices the stream is gone
    clock.advance(timedelta(seconds=61))
    presence.mark_absences()
    seat.refresh_from_db()
    assert seat.is_absent, "60 s after the tab closed the seat is absent"

    again = players.contexts[0].new_page()
    again.goto(f"/games/{game.pk}/")
    expect(again.locator("[data-game]")).to_be_visible()
    seat.refresh_from_db()
    assert not seat.is_absent, "reopening the page reclaims the seat"


def test_the_event_stream_says_only_which_version(club_server: str) -> None:
    people = UserFactory.create_batch(4)
    game = started_game(players=people, mode=Game.Mode.LIVE)
    turn = Game.objects.get(pk=game.pk).turn_seat
    assert turn is not None
    with requests.get(
        f"{club_server}/games/{game.pk}/events/",
        cookies=session_cookie(people[(turn + 1) % 4]),
        stream=True,
        timeout=5,
    ) as stream:
        assert stream.headers["Content-Type"].startswith("text/event-stream")
        lines = (line.decode() for line in stream.iter_lines())
        assert next(lines).startswith("retry:")
        mover = Client()
        mover.force_login(people[turn])
        assert (
            mover.post(
                f"/games/{game.pk}/move/", {"version": "0", "action": '{"type": "draw"}'}
            ).status_code
            == 200
        )
        received = []
        for line in lines:
            received.append(line)
            if line.startswith("data:"):
                break
    assert received[-2:] == ["event: changed", 'data: {"version": 1}']


def test_a_private_table_has_no_stream_for_strangers(club_server: str) -> None:
    owner, stranger = UserFactory.create_batch(2)
    from games import services

    game = services.open_table(user=owner, mode="live", length="deal", rules={}, private=True)
    answer = requests.get(
        f"{club_server}/games/{game.pk}/events/", cookies=session_cookie(stranger), timeout=5
    )
    assert answer.status_code == 404


def _log_in(players: Players, user: object) -> Page:
    page = players.new_page()
    page.context.add_cookies(
        [{"name": k, "value": v, "url": players.base_url} for k, v in session_cookie(user).items()]
    )
    return page


def test_while_the_stream_is_down_a_banner_shows_and_the_page_polls(
    players: Players, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def refused(scope: object, receive: object, send: Any) -> None:
        await send({"type": "http.response.start", "status": 503, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    monkeypatch.setattr(events, "asgi_stream", refused)
    people = UserFactory.create_batch(4)
    game = started_game(players=people, mode=Game.Mode.LIVE)
    turn = Game.objects.get(pk=game.pk).turn_seat
    assert turn is not None
    watching = _log_in(players, people[(turn + 1) % 4])
    watching.goto(f"/games/{game.pk}/")
    expect(watching.locator("[data-reconnecting]")).to_be_visible()
    mover = Client()
    mover.force_login(people[turn])
    mover.post(f"/games/{game.pk}/move/", {"version": "0", "action": '{"type": "draw"}'})
    # A live table polls every second while it has no stream.
    expect(watching.locator("[data-game]")).to_have_attribute("data-version", "1", timeout=3000)


def test_without_redis_the_page_polls(players: Players, settings: Any) -> None:
    settings.LIVE_EVENTS = False  # as `make run` on the embedded defaults
    people = UserFactory.create_batch(4)
    game = started_game(players=people, mode=Game.Mode.LIVE)
    turn = Game.objects.get(pk=game.pk).turn_seat
    assert turn is not None
    watching = _log_in(players, people[(turn + 1) % 4])
    watching.goto(f"/games/{game.pk}/")
    assert watching.locator(".table-page").get_attribute("data-events-url") == ""
    mover = Client()
    mover.force_login(people[turn])
    mover.post(f"/games/{game.pk}/move/", {"version": "0", "action": '{"type": "draw"}'})
    expect(watching.locator("[data-game]")).to_have_attribute("data-version", "1", timeout=3000)
    expect(watching.locator("[data-reconnecting]")).to_be_hidden()
