"""Another revision of the club, laid out in a temporary folder, for the benches' A/B runs."""

import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def short_name(revision: str) -> str:
    """The revision's abbreviated commit id (what the benches print for it)."""
    return subprocess.run(
        ["git", "rev-parse", "--short", revision],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()


@contextmanager
def exported_tree(revision: str) -> Iterator[Path]:
    """The files of `revision` (git archive: no checkout, no worktree of the repository touched)
    in a temporary folder, removed afterwards. It runs on this tree's virtualenv: packages are
    only ever added to it, so an older tree finds what it needs."""
    with tempfile.TemporaryDirectory(prefix=f"canasta-{short_name(revision)}-") as folder:
        archive = subprocess.Popen(
            ["git", "archive", "--format=tar", revision], cwd=ROOT, stdout=subprocess.PIPE
        )
        subprocess.run(["tar", "-x", "-C", folder], stdin=archive.stdout, check=True)
        if archive.wait() != 0:
            raise RuntimeError(f"git archive {revision} failed")
        (Path(folder) / "var").mkdir(exist_ok=True)
        yield Path(folder)
