"""kombu's file-system broker (the embedded default) with messages written atomically.

kombu creates a message file empty and then writes it; a worker polling the folder in between
takes the empty file and dies on it ("Unrecoverable error: JSONDecodeError"), and with it every
deadline sweep. Here a message is written under a name the consumer ignores and renamed into place
once complete, so a consumer sees whole messages only. Selected by settings.CELERY_BROKER_TRANSPORT
whenever the broker URL is `filesystem://`.
"""

import logging
import os
import uuid
from time import monotonic
from typing import Any

from kombu.exceptions import ChannelError
from kombu.transport import filesystem
from kombu.utils.json import dumps

logger = logging.getLogger(__name__)


class Channel(filesystem.Channel):
    def _put(self, queue: str, payload: dict[str, Any], **kwargs: Any) -> None:  # type: ignore[override]  # the stubs of its two bases disagree
        # kombu's own name: time-ordered, and the consumer takes `<anything>.<queue>.msg`.
        name = f"{round(monotonic() * 1000)}_{uuid.uuid4()}.{queue}.msg"
        path = os.path.join(self.data_folder_out, name)
        partial = f"{path}.part"
        try:
            with open(partial, "wb") as file:
                file.write(dumps(payload).encode())
            os.replace(partial, path)
        except OSError as exc:
            raise ChannelError(f"Cannot add file {path!r} to directory") from exc

    def _get(self, queue: str, timeout: float | None = None) -> Any:
        while True:
            try:
                return super()._get(queue)
            except ValueError:
                # A truncated file (left by a crash mid-write before this transport): kombu has
                # already taken it off the queue; drop it rather than stop the worker.
                logger.warning("Dropped an unreadable message file from queue %s", queue)


class Transport(filesystem.Transport):
    Channel = Channel
