"""The games API (CONTRACT.md §3): lobby, seats, game state, moves, export."""

from rest_framework import status
from rest_framework.generics import GenericAPIView
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.authentication import request_user
from accounts.models import User
from club import clock
from club.errors import Conflict, Invalid, error_body
from club.i18n import text
from games import api_schema, bodies, errors, selectors, services, table_phrases
from games.errors import IllegalMoveRefused
from games.models import Game
from games.serializers import (
    GameCreateSerializer,
    InviteRequestSerializer,
    JoinSerializer,
    LobbyQuerySerializer,
    MoveLogQuerySerializer,
    MoveRequestSerializer,
    PauseRequestSerializer,
    SayPhraseSerializer,
    SeatBotSerializer,
)
from games.services import pauses, presence
from games.store import LoadedGame

IDEMPOTENCY_KEY_MAX = 255


def _game_or_404(game_id: int) -> LoadedGame:
    loaded = selectors.game_with_seats(game_id=game_id)
    if loaded is None:
        raise errors.game_not_found()
    return loaded


def _visible_game_or_404(request: Request, game_id: int) -> LoadedGame:
    """The game, unless it is a private table the caller may not see (404, as if absent)."""
    loaded = _game_or_404(game_id)
    user = request_user(request)
    invite_code = request.query_params.get("invite_code", "")
    if not selectors.may_see(table=loaded, viewer=user, invite_code=invite_code):
        raise errors.game_not_found()
    return loaded


def _seen_by(loaded: LoadedGame, user: User) -> int | None:
    """The caller's seat (None for a spectator), recording that a seated caller is here."""
    seat = loaded.seat_of(user)
    if seat is None:
        return None
    presence.mark_seen(seat=seat, now=loaded.now)
    return seat.seat


class GamesView(GenericAPIView):
    # Only for the browsable API's forms: the lobby itself comes from selectors.lobby.
    serializer_class = GameCreateSerializer
    queryset = Game.objects.none()

    @api_schema.lobby
    def get(self, request: Request) -> Response:
        query = LobbyQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        user = request_user(request)
        games = selectors.lobby(
            user=user,
            status=query.validated_data.get("status"),
            mine=query.validated_data["mine"],
            for_my_rating=query.validated_data["for_my_rating"],
        )
        page = self.paginate_queryset(games) or []
        now = clock.now()  # one read of the club's clock for every row (who is away, paused)
        changes = selectors.rating_changes_of(page)
        rows = [
            selectors.game_summary(
                table=selectors.table_of(game), viewer=user, now=now, rating_changes=changes
            )
            for game in page
        ]
        return self.get_paginated_response(rows)

    @api_schema.open_table
    def post(self, request: Request) -> Response:
        serializer = GameCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = request_user(request)
        game = services.open_table(user=user, **serializer.validated_data)
        return Response(
            selectors.game_detail(table=_game_or_404(game.pk), viewer=user),
            status=status.HTTP_201_CREATED,
        )


class GameDetailView(APIView):
    @api_schema.game
    def get(self, request: Request, game_id: int) -> Response:
        loaded = _visible_game_or_404(request, game_id)
        user = request_user(request)
        _seen_by(loaded, user)
        detail = selectors.game_detail(table=loaded, viewer=user)
        # Read apart from the game (said without a move: no version of the game holds them).
        phrases = selectors.table_phrases(game=loaded.game, viewer=user)
        # Added to a copy: the game's answer may be cached per version, never with phrases.
        answer: bodies.GameDetail = {
            **detail,
            "phrases": [selectors.phrase_entry(said) for said in phrases],
        }
        return Response(answer)


class JoinView(APIView):
    @api_schema.join
    def post(self, request: Request, game_id: int) -> Response:
        serializer = JoinSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = request_user(request)
        joined = services.join_table(game_id=game_id, user=user, **serializer.validated_data)
        return Response(selectors.game_detail(table=joined, viewer=user))


class SeatBotView(APIView):
    @api_schema.seat_bot
    def post(self, request: Request, game_id: int) -> Response:
        serializer = SeatBotSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = request_user(request)
        seated = services.seat_bot(game_id=game_id, user=user, **serializer.validated_data)
        return Response(selectors.game_detail(table=seated, viewer=user))


class LeaveView(APIView):
    @api_schema.leave
    def post(self, request: Request, game_id: int) -> Response:
        user = request_user(request)
        left = services.leave_table(game_id=game_id, user=user)
        if left is None:
            return Response(status=status.HTTP_204_NO_CONTENT)
        return Response(selectors.game_detail(table=left, viewer=user))


def move_answer(judged: services.MoveResult | IllegalMoveRefused) -> dict[str, object]:
    """The API's answer to a move the engine judged: sent fresh, and stored for Idempotency-Key
    retries (so both are the same bytes)."""
    if isinstance(judged, IllegalMoveRefused):
        return error_body(judged)
    viewer_seat = judged.seat.seat
    return {
        "moves": [selectors.move_entry(move, viewer_seat=viewer_seat) for move in judged.moves],
        "game": selectors.game_detail(
            table=judged.table, viewer=judged.seat.user, match=judged.match
        ),
    }


class MovesView(APIView):
    @api_schema.move_log
    def get(self, request: Request, game_id: int) -> Response:
        query = MoveLogQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        loaded = _visible_game_or_404(request, game_id)
        game = loaded.game
        viewer_seat = _seen_by(loaded, request_user(request))
        limit = selectors.MOVE_LOG_PAGE
        moves = selectors.move_log_for(
            game=game, viewer_seat=viewer_seat, after=query.validated_data["after"], limit=limit + 1
        )
        log: bodies.MoveLog = {
            "version": game.version,
            "moves": moves[:limit],
            "has_more": len(moves) > limit,
        }
        return Response(log)

    @api_schema.make_move
    def post(self, request: Request, game_id: int) -> Response:
        key = request.headers.get("Idempotency-Key") or None
        if key is not None and not (len(key) <= IDEMPOTENCY_KEY_MAX and key.isprintable()):
            raise Invalid(
                "invalid_idempotency_key",
                text(
                    "Заголовок Idempotency-Key: не больше 255 печатных символов.",
                    "The Idempotency-Key header: at most 255 printable characters.",
                ),
            )
        serializer = MoveRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        made = services.make_move(
            game_id=game_id,
            user=request_user(request),
            version=serializer.validated_data["version"],
            action=serializer.validated_data["action"],
            idempotency=None if key is None else services.Idempotency(key=key, answer=move_answer),
        )
        if isinstance(made, services.Replay):
            # A retry: the first answer again, with its status (an illegal move is 400).
            code = status.HTTP_400_BAD_REQUEST if made.refused else status.HTTP_200_OK
            return Response(made.answer, status=code)
        # Without a key the game is shown after the lock is released.
        return Response(move_answer(made))


class HeartbeatView(APIView):
    @api_schema.heartbeat
    def post(self, request: Request, game_id: int) -> Response:
        seat = presence.reclaim_seat(game_id=game_id, user=request_user(request))
        return Response(selectors.seat_presence(seat))


class ContinueView(APIView):
    @api_schema.close_deal_summary
    def post(self, request: Request, game_id: int) -> Response:
        user = request_user(request)
        closed = services.close_deal_summary(game_id=game_id, user=user)
        return Response(selectors.game_detail(table=closed, viewer=user))


class ExportView(APIView):
    @api_schema.export
    def get(self, request: Request, game_id: int) -> Response:
        loaded = _visible_game_or_404(request, game_id)
        if not loaded.game.is_over:
            raise Conflict(
                "game_not_finished",
                text("Игра ещё не закончена.", "The game is not finished yet."),
            )
        if loaded.game.sealed:
            raise Conflict(
                "game_sealed",
                text(
                    "Эти раздачи ещё играют за другими столами тура: запись партии откроется, "
                    "когда тур закончится.",
                    "These deals are still being played at the round's other tables: the "
                    "record opens when the round is over.",
                ),
            )
        return Response(selectors.export_of(table=loaded))


class PauseView(APIView):
    @api_schema.ask_pause
    def post(self, request: Request, game_id: int) -> Response:
        serializer = PauseRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = request_user(request)
        asked = pauses.ask_pause(game_id=game_id, user=user, **serializer.validated_data)
        return Response(selectors.game_detail(table=asked, viewer=user))


class PauseAcceptView(APIView):
    @api_schema.accept_pause
    def post(self, request: Request, game_id: int) -> Response:
        user = request_user(request)
        accepted = pauses.accept_pause(game_id=game_id, user=user)
        return Response(selectors.game_detail(table=accepted, viewer=user))


class PauseResumeView(APIView):
    @api_schema.resume_pause
    def post(self, request: Request, game_id: int) -> Response:
        user = request_user(request)
        resumed = pauses.resume_pause(game_id=game_id, user=user)
        return Response(selectors.game_detail(table=resumed, viewer=user))


# --------------------------------------------------------------------------- invitations (§8)


class InvitePlayersView(APIView):
    @api_schema.invite_players
    def post(self, request: Request, game_id: int) -> Response:
        body = InviteRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        user = request_user(request)
        invited = services.invite_players(
            game_id=game_id, user=user, invitee_ids=body.validated_data["invite"]
        )
        return Response(selectors.game_detail(table=invited, viewer=user))


class MyInvitationsView(APIView):
    @api_schema.my_invitations
    def get(self, request: Request) -> Response:
        pending = selectors.invitations_for(user=request_user(request))
        return Response([selectors.invitation_entry(invitation) for invitation in pending])


class InvitationAcceptView(APIView):
    @api_schema.accept_invitation
    def post(self, request: Request, invitation_id: int) -> Response:
        user = request_user(request)
        invitation = services.invitation_to_accept(invitation_id=invitation_id, user=user)
        joined = services.join_table(game_id=invitation.game_id, user=user, seat=invitation.seat)
        return Response(selectors.game_detail(table=joined, viewer=user))


class InvitationDeclineView(APIView):
    @api_schema.decline_invitation
    def post(self, request: Request, invitation_id: int) -> Response:
        declined = services.decline_invitation(
            invitation_id=invitation_id, user=request_user(request)
        )
        return Response(selectors.invitation_answer(declined))


class InvitationDetailView(APIView):
    @api_schema.withdraw_invitation
    def delete(self, request: Request, invitation_id: int) -> Response:
        services.withdraw_invitation(invitation_id=invitation_id, user=request_user(request))
        return Response(status=status.HTTP_204_NO_CONTENT)


class RematchView(APIView):
    @api_schema.rematch
    def post(self, request: Request, game_id: int) -> Response:
        user = request_user(request)
        made = services.rematch(game_id=game_id, user=user)
        return Response(
            selectors.game_detail(table=made.table, viewer=user),
            status=status.HTTP_201_CREATED if made.created else status.HTTP_200_OK,
        )


# --------------------------------------------------------------------------- the table's phrases


class PhrasesView(APIView):
    @api_schema.phrases
    def get(self, request: Request) -> Response:
        return Response(table_phrases.catalogue())


class SayPhraseView(APIView):
    @api_schema.say_phrase
    def post(self, request: Request, game_id: int) -> Response:
        body = SayPhraseSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        said = services.say_phrase(
            game_id=game_id, user=request_user(request), phrase=body.validated_data["phrase"]
        )
        return Response(selectors.phrase_entry(said), status=status.HTTP_201_CREATED)
