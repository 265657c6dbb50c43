"""Slow-header clients against gunicorn alone, uvicorn alone and behind nginx (deploy/nginx.conf).

    .venv/bin/python bench/slow_clients.py [--slow 4] [--nginx-slow 40] [--seconds 20]

gunicorn with gunicorn.conf.py (WEB_CONCURRENCY=2, WEB_THREADS=2 here: four request slots) on
the embedded defaults (a temporary SQLite database, no other server), uvicorn serving
canasta_club.asgi as in production (the live pages' event streams; the rest is the same Django
application), then nginx in front of gunicorn with the server block of deploy/nginx.conf. Each
phase opens sockets (`--slow` against gunicorn, `--nginx-slow` against uvicorn and nginx) that
send a request's headers one byte every 2 s, and meanwhile a probe GETs /api/health/ twice a
second (3 s timeout); it prints the probes' latency and failures, and how long the slow sockets
were held open.
Loopback only, bounded in time (each phase `--seconds`), and it stops everything it started.
Needs nginx (`apt-get install nginx-light`).
"""

import argparse
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APP_PORT = 18420
PROXY_PORT = 18421
ASGI_PORT = 18422
SLOW_HEADER = b"GET /api/health/ HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 200


def wait_for(port: int, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health/", timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"nothing answers on port {port}")


def slow_client(port: int, stop: threading.Event, held: list[float]) -> None:
    """Send the headers a byte every 2 s until the server closes or the phase ends."""
    opened = time.monotonic()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
            for byte in SLOW_HEADER:
                if stop.wait(2):
                    break
                sock.sendall(bytes([byte]))
    except OSError:
        pass  # the server closed it
    held.append(time.monotonic() - opened)


def probe(port: int, seconds: float) -> tuple[list[float], int]:
    latencies, failures = [], 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        started = time.monotonic()
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health/", timeout=3) as r:
                r.read()
            latencies.append(time.monotonic() - started)
        except OSError:
            failures += 1
        time.sleep(max(0.0, 0.5 - (time.monotonic() - started)))
    return latencies, failures


def phase(name: str, port: int, slow: int, seconds: float) -> None:
    stop = threading.Event()
    held: list[float] = []
    threads = [
        threading.Thread(target=slow_client, args=(port, stop, held), daemon=True)
        for _ in range(slow)
    ]
    for thread in threads:
        thread.start()
    time.sleep(1)  # let the slow sockets connect and start their headers
    latencies, failures = probe(port, seconds)
    stop.set()
    for thread in threads:
        thread.join(timeout=5)
    answered = len(latencies)
    line = f"{name}: {slow} slow sockets; health probes {answered} answered, {failures} failed"
    if latencies:
        line += (
            f"; latency p50 {statistics.median(latencies) * 1000:.0f} ms, "
            f"max {max(latencies) * 1000:.0f} ms"
        )
    if held:
        line += f"; slow sockets held open up to {max(held):.1f} s"
    print(line, flush=True)


def nginx_conf(prefix: Path) -> Path:
    site = (ROOT / "deploy" / "nginx.conf").read_text(encoding="utf-8")
    site = site.replace("server 127.0.0.1:8000;", f"server 127.0.0.1:{APP_PORT};")
    site = re.sub(r"listen 80;", f"listen 127.0.0.1:{PROXY_PORT};", site)
    site = site.replace("/srv/canasta/var/static/", f"{prefix}/static/")
    conf = prefix / "nginx.conf"
    conf.write_text(
        f"daemon off;\nworker_processes 1;\npid {prefix}/nginx.pid;\n"
        f"error_log {prefix}/error.log warn;\nevents {{ worker_connections 512; }}\n"
        f"http {{\naccess_log off;\nclient_body_temp_path {prefix}/body;\n"
        f"proxy_temp_path {prefix}/proxy;\n{site}\n}}\n",
        encoding="utf-8",
    )
    return conf


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slow", type=int, default=4, help="slow sockets against gunicorn")
    parser.add_argument("--nginx-slow", type=int, default=40, help="slow sockets against nginx")
    parser.add_argument("--seconds", type=float, default=20)
    args = parser.parse_args()
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(nginx).exists():
        sys.exit("needs nginx: apt-get install nginx-light")

    with tempfile.TemporaryDirectory(prefix="canasta_slow_") as tmp:
        prefix = Path(tmp)
        env = {
            **os.environ,
            "DATABASE_URL": f"sqlite:///{prefix / 'club.sqlite3'}",
            "CANASTA_VAR_DIR": str(prefix / "var"),
            "DJANGO_SETTINGS_MODULE": "canasta_club.settings",
            "PORT": str(APP_PORT),
            "WEB_CONCURRENCY": "2",
            "WEB_THREADS": "2",
            "LOG_LEVEL": "WARNING",
            # The probe is one client: its own throttle must not be what is measured.
            "API_RATE_ANON": "1000000/min",
        }
        for name in ("REDIS_URL", "CELERY_BROKER_URL", "SECRET_KEY"):
            env.pop(name, None)
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--no-input", "-v", "0"],
            cwd=ROOT,
            env=env,
            check=True,
        )
        started: list[subprocess.Popen[bytes]] = []

        def serve(command: list[str], port: int) -> None:
            started.append(subprocess.Popen(command, cwd=ROOT, env=env, stderr=subprocess.DEVNULL))
            wait_for(port)

        bin_dir = Path(sys.executable).parent
        try:
            serve([str(bin_dir / "gunicorn"), "canasta_club.wsgi"], APP_PORT)
            phase("gunicorn alone", APP_PORT, args.slow, args.seconds)
            asgi = ["canasta_club.asgi:application", "--no-access-log"]
            serve([str(bin_dir / "uvicorn"), *asgi, "--port", str(ASGI_PORT)], ASGI_PORT)
            phase("uvicorn alone", ASGI_PORT, args.nginx_slow, args.seconds)
            serve([nginx, "-p", str(prefix), "-c", str(nginx_conf(prefix))], PROXY_PORT)
            phase("nginx in front", PROXY_PORT, args.nginx_slow, args.seconds)
        finally:
            for process in reversed(started):
                process.terminate()
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process.kill()


if __name__ == "__main__":
    main()
