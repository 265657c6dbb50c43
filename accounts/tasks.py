from celery import shared_task
from django.conf import settings
from django.contrib.auth.tokens import default_token_generator
from django.core.mail import send_mail
from django.urls import reverse
from django.utils import translation
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from accounts.models import User
from club.i18n import text


@shared_task
def purge_expired_tokens() -> int:
    from accounts import services  # imported here: services imports this module's tasks

    return services.purge_expired_tokens()


@shared_task
def purge_expired_sessions() -> None:
    from accounts import services

    services.purge_expired_sessions()


# SMTP errors are OSErrors: retried with backoff, so a mail server hiccup loses no email.
@shared_task(autoretry_for=(OSError,), retry_backoff=True, max_retries=5)
def send_password_reset_email(*, user_id: int) -> None:
    # The token is made here, not by the web request, so it never sits in the broker.
    user = User.objects.filter(pk=user_id, is_active=True).first()
    if user is None or not user.has_usable_password():
        return
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    token = default_token_generator.make_token(user)
    page = reverse("password-reset-page", kwargs={"uidb64": uid, "token": token})
    confirm_path = reverse("accounts:password-reset-confirm")
    with translation.override(user.language):
        subject = text("Клуб канасты: сброс пароля", "Canasta Club: password reset")
        body = text(
            "Здравствуйте, {name}!\n\n"
            "Кто-то, надеемся, что вы, попросил сбросить пароль учётной записи «{username}» "
            "в Клубе канасты. Чтобы задать новый пароль, откройте ссылку:\n\n{link}\n\n"
            "Программа может вместо этого отправить POST-запросом uid, token и new_password "
            "на {confirm_url}:\n"
            "uid: {uid}\ntoken: {token}\n\n"
            "Если это были не вы, просто не обращайте внимания на это письмо: пароль "
            "останется прежним.",
            "Hello, {name}!\n\n"
            'Someone, hopefully you, asked to reset the password of the account "{username}" '
            "at Canasta Club. To choose a new password, open this link:\n\n{link}\n\n"
            "A program can instead POST uid, token and new_password to {confirm_url}:\n"
            "uid: {uid}\ntoken: {token}\n\n"
            "If it was not you, ignore this email: your password stays as it is.",
        ).format(
            name=user.display_name or user.username,
            username=user.username,
            link=f"{settings.SITE_URL}{page}",
            confirm_url=f"{settings.SITE_URL}{confirm_path}",
            uid=uid,
            token=token,
        )
    send_mail(subject, body, None, [user.email])
