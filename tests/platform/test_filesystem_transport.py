"""The embedded file-system broker: a consumer sees whole messages only, and an unreadable file
(an empty one, as kombu's own transport leaves mid-write) is dropped instead of killing the
worker."""

from pathlib import Path

import pytest
from kombu import Connection, Queue

from club.filesystem_transport import Transport


@pytest.fixture
def connection(tmp_path: Path):
    folder = str(tmp_path)
    with Connection(
        "filesystem://localhost",
        transport=Transport,
        transport_options={
            "data_folder_in": folder,
            "data_folder_out": folder,
            "store_processed": False,
        },
    ) as conn:
        yield conn


def test_messages_round_trip_and_leave_no_partial_files(connection, tmp_path):
    queue = Queue("celery")
    with connection.Producer() as producer:
        producer.publish({"n": 1}, routing_key="celery", declare=[queue])

    assert [p.name.endswith(".celery.msg") for p in tmp_path.iterdir()] == [True]
    message = connection.SimpleQueue(queue).get(timeout=1)
    assert message.payload == {"n": 1}


def test_a_partial_file_is_invisible_and_an_empty_one_is_dropped(connection, tmp_path):
    queue = Queue("celery")
    (tmp_path / "1_being-written.celery.msg.part").write_bytes(b'{"n"')
    (tmp_path / "0_truncated.celery.msg").write_bytes(b"")
    with connection.Producer() as producer:
        producer.publish({"n": 3}, routing_key="celery", declare=[queue])

    message = connection.SimpleQueue(queue).get(timeout=1)

    assert message.payload == {"n": 3}
    assert (tmp_path / "1_being-written.celery.msg.part").exists()
    assert not (tmp_path / "0_truncated.celery.msg").exists()
