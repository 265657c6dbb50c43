"""Thin Celery tasks; the work is in accounts.services (which enqueues them after commit)."""

from celery import shared_task

from accounts import services


@shared_task
def purge_expired_tokens() -> int:
    return services.purge_expired_tokens()


@shared_task
def purge_expired_sessions() -> None:
    services.purge_expired_sessions()


# SMTP errors are OSErrors: retried with backoff, so a mail server hiccup loses no email.
@shared_task(autoretry_for=(OSError,), retry_backoff=True, max_retries=5)
def send_password_reset_email(*, user_id: int) -> None:
    services.email_password_reset(user_id=user_id)
