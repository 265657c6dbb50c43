from typing import Any

from django.apps import AppConfig
from django.db.models.signals import post_delete, post_save


class AccountsConfig(AppConfig):
    name = "accounts"

    def ready(self) -> None:
        from accounts.models import ApiToken, User

        # The token authentication's cache (accounts/token_cache.py) forgets what changed.
        post_save.connect(_user_saved, sender=User, dispatch_uid="accounts.token_cache.user")
        post_delete.connect(
            _token_deleted, sender=ApiToken, dispatch_uid="accounts.token_cache.token"
        )


def _user_saved(
    sender: type, instance: Any, created: bool, update_fields: frozenset[str] | None, **kwargs: Any
) -> None:
    from accounts import token_cache

    if not created and not (update_fields and update_fields <= token_cache.STAMPS):
        token_cache.changed(token_cache.digests_of_users([instance.pk]))


def _token_deleted(sender: type, instance: Any, **kwargs: Any) -> None:
    from accounts import token_cache

    token_cache.changed([instance.digest])
