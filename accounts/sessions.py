"""The session engine: Django's database sessions (`django.contrib.sessions.backends.db`), each
row also naming the user signed in on it (`accounts.BrowserSession`), so that the admin can end
a user's sessions ("End their browser sessions" in the users' list).

The database is the sessions' record and the only place they are read from: every signed-in
request reads its session's row, so whatever ends a session ends it at once, by any way Django
offers — log-out, a new log-in, a password change, the row deleted (the ORM, SQL, `manage.py
clearsessions`, the admin's action), `expire_date` moved into the past — and Redis plays no part
in it (an outage cannot keep a session alive nor make ending one fail). A cache in front could
not see a row deleted by SQL or an `expire_date` moved by `update()`; the read it would save
costs about 0.7 ms of CPU per signed-in page (`bench/sessions.py`, SECURITY.md). A request that
read its session before the log-out and then saves it finds no row to update: Django answers
400 (`SessionInterrupted`) instead of writing the session back.
"""

from django.contrib.auth import SESSION_KEY, get_user_model
from django.contrib.sessions.backends import db

from accounts.models import BrowserSession


class SessionStore(db.SessionStore):
    @classmethod
    def get_model_class(cls) -> type[BrowserSession]:
        return BrowserSession

    def create_model_instance(self, data: dict[str, object]) -> BrowserSession:
        session = super().create_model_instance(data)
        assert isinstance(session, BrowserSession)
        user_id = data.get(SESSION_KEY)
        session.user_id = None if user_id is None else get_user_model()._meta.pk.to_python(user_id)
        return session
