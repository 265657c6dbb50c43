"""`make run` (issue 22, point 6): only the runtime requirements installed, and the embedded
club served as a deployment serves it: uvicorn with the ASGI app, static files by whitenoise,
SQLite and the file broker, a Celery worker with beat."""

import contextlib
import os
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest
import requests

ROOT = Path(__file__).resolve().parents[2]


def test_make_run_installs_only_what_running_needs(tmp_path: Path) -> None:
    planned = subprocess.run(
        ["make", "-n", "run", f"VENV={tmp_path / 'venv'}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "-r requirements.txt" in planned
    assert "requirements-dev.txt" not in planned
    assert "scripts/run-embedded.sh" in planned
    tested = subprocess.run(
        ["make", "-n", "pytest", f"VENV={tmp_path / 'venv'}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "-r requirements.txt" in tested and "-r requirements-dev.txt" in tested


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.slow
def test_the_embedded_club_is_served_by_uvicorn_with_its_static_files(tmp_path: Path) -> None:
    port = free_port()
    env = {
        "PATH": f"{ROOT / '.venv' / 'bin'}:/usr/bin:/bin",
        "PORT": str(port),
        "DATABASE_URL": f"sqlite:///{tmp_path / 'club.sqlite3'}",
        "CANASTA_VAR_DIR": str(tmp_path / "var"),
    }
    club = subprocess.Popen(
        ["scripts/run-embedded.sh"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 240
        while True:
            try:
                lobby = requests.get(f"{base}/", timeout=5)
                break
            except requests.ConnectionError:
                assert club.poll() is None, "make run's script stopped"
                assert time.monotonic() < deadline, "no answer within 240 s"
                time.sleep(0.5)
        assert lobby.status_code == 200
        assert lobby.headers["server"] == "uvicorn"
        assert "script-src 'self'" in lobby.headers["Content-Security-Policy"]
        css = requests.get(f"{base}/static/web/club.css", timeout=5)
        assert (css.status_code, css.headers["Content-Type"]) == (200, 'text/css; charset="utf-8"')
        assert "Access-Control-Allow-Origin" not in css.headers
        policy = lobby.headers["Content-Security-Policy"]
        assert css.headers["Content-Security-Policy"] == policy  # whitenoise's (static_files.py)
        assert requests.get(f"{base}/api/docs/", timeout=5).status_code == 200
        swagger = "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui.css"
        assert requests.get(f"{base}{swagger}", timeout=5).status_code == 200
    finally:
        stop_group(club)


def stop_group(club: subprocess.Popen) -> None:
    """The script, its worker and its web server: asked to stop, then made to within 60 s."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(club.pid, signal.SIGTERM)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        club.poll()
        try:
            os.killpg(club.pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.5)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(club.pid, signal.SIGKILL)
    club.wait()
