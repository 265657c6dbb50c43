"""Accounts: sign-up, tokens, passwords and the own profile.

Each entry point that writes more than one row runs its own durable transaction, so none can
be called inside another's and half-commit with it."""

import secrets
from collections.abc import Iterable
from datetime import datetime, timedelta
from functools import partial

from django.conf import settings
from django.contrib.auth import authenticate, password_validation
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import ValidationError as DjangoValidationError
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.encoding import force_bytes, force_str
from django.utils.http import urlsafe_base64_decode, urlsafe_base64_encode
from django.utils.translation import get_language

from accounts import login_limits, names
from accounts.authentication import digest_of
from accounts.forms import too_many_failures
from accounts.models import DEVICE_NAME_MAX_LENGTH, ApiToken, BrowserSession, User
from club import clock
from club.errors import Forbidden, Invalid, LimitReached, NotFound
from club.i18n import text

# A player's devices; a program logging in on every run does not pile up tokens beyond this.
MAX_TOKENS_PER_USER = 20
# A player's `last_seen_at` is written at most this often (accounts.middleware).
SEEN_RESOLUTION = timedelta(minutes=1)
# When this process last stamped each player (user id -> its clock): a token request's user is
# the token cache's copy, whose `last_seen_at` the stamp leaves as it was cached
# (accounts/token_cache.py), so the copy alone would stamp on every request. Emptied when it
# holds STAMPS_KEPT players (then each is stamped once more).
_stamped: dict[int, datetime] = {}
STAMPS_KEPT = 10_000


def _validate_new_password(*, password: str, user: User) -> None:
    try:
        password_validation.validate_password(password, user=user)
    except DjangoValidationError as exc:
        raise Invalid("weak_password", " ".join(exc.messages)) from exc


def _username_taken() -> Invalid:
    # Also for a look-alike of a taken name (accounts/names.py): to a reader it is taken.
    return Invalid(
        "username_taken",
        text("Это имя пользователя уже занято.", "This username is already taken."),
    )


def _shown_name(name: str) -> str:
    """A name others see, normalised (accounts/names.py); 400 `invalid_name` if it hides or
    reorders characters."""
    try:
        return names.normalised(name)
    except names.NameRefused as exc:
        raise Invalid(
            "invalid_name",
            text(
                f"В имени недопустимый невидимый или управляющий символ ({exc}).",
                f"The name holds an invisible or control character ({exc}).",
            ),
        ) from None


def _email_taken() -> Invalid:
    return Invalid(
        "email_taken",
        text(
            "Этот адрес почты уже указан в другой учётной записи.",
            "Another account already uses this email.",
        ),
    )


def _email_in_use(email: str, *, besides: User | None = None) -> bool:
    others = User.objects.filter(email__iexact=email)
    if besides is not None:
        others = others.exclude(pk=besides.pk)
    return others.exists()


def _language_of_request() -> str:
    language = get_language()
    return language if language in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE


def issue_token(*, user: User, device: str = "") -> str:
    """A new API token for one device; its key, which is stored only as a digest. The oldest
    beyond MAX_TOKENS_PER_USER, and the user's expired ones, are deleted."""
    key = secrets.token_hex(20)
    now = timezone.now()
    ApiToken.objects.create(
        user=user,
        digest=digest_of(key),
        device=device[:DEVICE_NAME_MAX_LENGTH],  # a User-Agent may be longer
        created_at=now,
        expires_at=now + settings.TOKEN_LIFETIME,
    )
    mine = ApiToken.objects.filter(user=user)
    beyond = mine.order_by("-created_at", "-pk").values_list("pk", flat=True)[MAX_TOKENS_PER_USER:]
    mine.filter(Q(pk__in=list(beyond)) | Q(expires_at__lte=now)).delete()
    return key


def register_user(
    *, username: str, password: str, email: str, display_name: str = "", device: str = ""
) -> tuple[User, str]:
    """Create an account and an API token (its key); the emails' language is the request's."""
    username = _shown_name(username)
    user = User(
        username=username,
        email=User.objects.normalize_email(email),
        display_name=_shown_name(display_name) or username,
        language=_language_of_request(),
    )
    _validate_new_password(password=password, user=user)
    if User.objects.filter(
        Q(username__iexact=username) | Q(username_skeleton=names.skeleton(username))
    ).exists():
        raise _username_taken()
    if _email_in_use(user.email):
        raise _email_taken()
    user.set_password(password)
    try:
        with transaction.atomic(durable=True):
            user.save()
            key = issue_token(user=user, device=device)
    except IntegrityError as exc:
        # A concurrent sign-up took the name or the email between the check and the insert.
        raise (_email_taken() if _email_in_use(user.email) else _username_taken()) from exc
    return user, key


def _refuse_while_limited(*, request: HttpRequest, username: str) -> None:
    """429 while the failed log-in limits refuse this client for this account: the password is
    then not checked at all (LimitedModelBackend), so "wrong" would be a lie."""
    wait = login_limits.retry_after(request=request, username=username)
    if wait is not None:
        raise LimitReached("throttled", too_many_failures(wait))


def _password_matches(*, request: HttpRequest, user: User, password: str) -> bool:
    """The user's own password, checked under the same limits as every log-in."""
    _refuse_while_limited(request=request, username=user.get_username())
    checked = authenticate(request, username=user.get_username(), password=password)
    return checked is not None and checked.pk == user.pk


def obtain_token(*, request: HttpRequest, username: str, password: str, device: str = "") -> str:
    """A new API token (its key) for this device, for valid credentials of an active account."""
    _refuse_while_limited(request=request, username=username)
    user = authenticate(request, username=username, password=password)
    if user is None:
        raise Invalid(
            "invalid_credentials",
            text("Неверное имя пользователя или пароль.", "Wrong username or password."),
        )
    with transaction.atomic(durable=True):
        return issue_token(user=user, device=device)


def revoke_token(*, user: User, token_id: int) -> None:
    """One of the user's own tokens stops working (a lost phone); 404 for any other id."""
    deleted, _by_model = ApiToken.objects.filter(user=user, pk=token_id).delete()
    if not deleted:
        raise NotFound("not_found", text("Токен не найден.", "Token not found."))


def revoke_all_tokens(*, user: User) -> None:
    ApiToken.objects.filter(user=user).delete()


def purge_expired_tokens() -> int:
    """Forget every expired token (a player who never logs in again leaves theirs); returns how
    many went."""
    deleted, _by_model = ApiToken.objects.filter(expires_at__lte=timezone.now()).delete()
    return deleted


def end_browser_sessions(*, users: Iterable[User]) -> int:
    """Sign these users out of every browser at once (their session rows deleted: the engine
    reads the row on every request); returns how many sessions ended."""
    deleted, _by_model = BrowserSession.objects.filter(user__in=users).delete()
    return deleted


def purge_expired_sessions() -> None:
    """Forget every expired browser session (what `manage.py clearsessions` does)."""
    BrowserSession.get_session_store_class().clear_expired()


def change_password(
    *, request: HttpRequest, user: User, old_password: str, new_password: str, device: str = ""
) -> str:
    """Set a new password; every API token stops working, so whoever held one is out, and the
    caller gets a new one (its key)."""
    if not _password_matches(request=request, user=user, password=old_password):
        raise Invalid(
            "wrong_password",
            text("Текущий пароль указан неверно.", "The current password is wrong."),
        )
    _validate_new_password(password=new_password, user=user)
    with transaction.atomic(durable=True):
        user.set_password(new_password)
        user.save(update_fields=["password"])
        revoke_all_tokens(user=user)
        return issue_token(user=user, device=device)


def request_password_reset(*, email: str) -> None:
    """Email a reset link to the active account with this address; silent when there is none."""
    from accounts.tasks import send_password_reset_email  # the tasks call the services

    users = User.objects.filter(email__iexact=email, is_active=True).only("pk", "password")
    for user in users:
        if user.has_usable_password():
            # robust: a broker outage is logged, never turned into a 500 that would tell the
            # caller this email has an account.
            transaction.on_commit(
                partial(send_password_reset_email.delay, user_id=user.pk), robust=True
            )


def email_password_reset(*, user_id: int) -> None:
    """The reset link, emailed to the active account (the task's work, after the request's
    commit)."""
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


def _user_for_reset(*, uid: str, token: str) -> User:
    invalid = Invalid(
        "invalid_reset_link",
        text(
            "Ссылка для сброса пароля неверна или устарела.",
            "The password reset link is invalid or has expired.",
        ),
    )
    try:
        user_id = int(force_str(urlsafe_base64_decode(uid)))
    except (ValueError, TypeError, OverflowError, UnicodeDecodeError) as exc:
        raise invalid from exc
    user = User.objects.filter(pk=user_id, is_active=True).first()
    if user is None or not default_token_generator.check_token(user, token):
        raise invalid
    return user


def reset_password(*, uid: str, token: str, new_password: str) -> None:
    """Set the password from an emailed link; every API token stops working."""
    user = _user_for_reset(uid=uid, token=token)
    _validate_new_password(password=new_password, user=user)
    with transaction.atomic(durable=True):
        user.set_password(new_password)
        user.save(update_fields=["password"])
        revoke_all_tokens(user=user)


def update_profile(
    *,
    request: HttpRequest,
    user: User,
    display_name: str | None = None,
    email: str | None = None,
    language: str | None = None,
    confirm_discard: bool | None = None,
    phrases_muted: bool | None = None,
    password: str = "",
) -> User:
    """Change the profile; a new email needs the current password, since the email is the way
    back into the account (password reset) and a stolen token must not be able to move it."""
    changed: list[str] = []
    if display_name is not None:
        # A mute covers every text other players see, the name above one's seat included.
        if user.is_muted(now=clock.now()):
            raise Forbidden(
                "muted",
                text(
                    "Пока действует запрет писать, имя менять нельзя.",
                    "You cannot change your name while you are muted.",
                ),
            )
        user.display_name = _shown_name(display_name) or user.username
        changed.append("display_name")
    if email is not None:
        # Mail providers ignore case: a change of case alone moves nothing.
        if email.lower() != user.email.lower() and not _password_matches(
            request=request, user=user, password=password
        ):
            raise Invalid(
                "wrong_password",
                text(
                    "Подтвердите новый адрес почты текущим паролем.",
                    "Confirm the new email with your current password.",
                ),
            )
        if _email_in_use(email, besides=user):
            raise _email_taken()
        user.email = User.objects.normalize_email(email)
        changed.append("email")
    if language is not None:
        user.language = language
        changed.append("language")
    if confirm_discard is not None:
        user.confirm_discard = confirm_discard
        changed.append("confirm_discard")
    if phrases_muted is not None:
        user.phrases_muted = phrases_muted
        changed.append("phrases_muted")
    if changed:
        try:
            with transaction.atomic(durable=True):
                user.save(update_fields=changed)
        except IntegrityError as exc:  # another account took the email since the check
            raise _email_taken() from exc
    return user


def mark_seen(*, user: User) -> None:
    """The player made a request: seen now (the database's clock), written at most once per
    SEEN_RESOLUTION by this process (one UPDATE of their row, no read: the row came with the
    request)."""
    now = clock.process_now()
    stamps = [seen for seen in (user.last_seen_at, _stamped.get(user.pk)) if seen is not None]
    if stamps and max(stamps) > now - SEEN_RESOLUTION:
        return
    User.objects.filter(pk=user.pk).update(last_seen_at=clock.now_expression())
    if len(_stamped) >= STAMPS_KEPT:
        _stamped.clear()
    _stamped[user.pk] = now
    # Until the row is read again: seen about now.
    user.last_seen_at = now
