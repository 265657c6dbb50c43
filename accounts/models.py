from django.contrib.auth.models import AbstractUser
from django.db import models


class User(AbstractUser):
    display_name = models.CharField(max_length=40, blank=True)
    # Denormalised sum of moderation.AuthorityChange rows; only moderation's services move it.
    authority = models.IntegerField(default=0)
    # Sanctions in force, set by moderation's services (the history is in moderation's tables).
    muted_until = models.DateTimeField(null=True, blank=True)
    suspended_until = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return self.display_name or self.username
