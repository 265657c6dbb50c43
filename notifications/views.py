from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.generics import GenericAPIView
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.authentication import request_user
from club.errors import Invalid
from club.i18n import text
from club.openapi import ERROR_400, ERROR_401
from notifications import selectors, services, webpush
from notifications.serializers import (
    MarkedSerializer,
    MarkReadSerializer,
    NotificationSerializer,
    NotificationSettingsPatchSerializer,
    NotificationSettingsSerializer,
    PushEndpointSerializer,
    PushKeySerializer,
    PushSubscriptionSerializer,
)

READ_FILTERS = {"read": True, "unread": False}


class NotificationsView(GenericAPIView):
    serializer_class = NotificationSerializer

    @extend_schema(
        tags=["notifications"],
        summary="In-app notifications, newest first",
        parameters=[
            OpenApiParameter("status", str, enum=["unread", "read"], description="Filter.")
        ],
        responses={200: NotificationSerializer(many=True), 400: ERROR_400, 401: ERROR_401},
    )
    def get(self, request: Request) -> Response:
        status_filter = request.query_params.get("status")
        if status_filter is not None and status_filter not in READ_FILTERS:
            raise Invalid(
                "bad_filter",
                text("status: unread или read.", "status must be unread or read."),
            )
        notifications = selectors.notifications_for(
            user=request_user(request),
            read=None if status_filter is None else READ_FILTERS[status_filter],
        )
        page = self.paginate_queryset(notifications)
        return self.get_paginated_response(NotificationSerializer(page, many=True).data)


class MarkReadView(APIView):
    @extend_schema(
        tags=["notifications"],
        summary="Mark notifications read",
        description='`{"ids": [1, 2]}` marks those; `{"all": true}` marks every one.',
        request=MarkReadSerializer,
        responses={200: MarkedSerializer, 400: ERROR_400, 401: ERROR_401},
    )
    def post(self, request: Request) -> Response:
        serializer = MarkReadSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        marked = services.mark_read(
            user=request_user(request),
            ids=serializer.validated_data.get("ids"),
            everything=serializer.validated_data["all"],
        )
        return Response({"marked": marked})


class NotificationSettingsView(APIView):
    @extend_schema(
        tags=["notifications"],
        summary="Own notification switches",
        responses={200: NotificationSettingsSerializer, 401: ERROR_401},
    )
    def get(self, request: Request) -> Response:
        return Response(selectors.settings_for(user=request_user(request)))

    @extend_schema(
        tags=["notifications"],
        summary="Change notification switches",
        description='Partial: e.g. `{"email": {"your_turn": false}, "digest": true}`. '
        "Errors: `unknown_kind`, `unknown_field`, `invalid`.",
        request=NotificationSettingsPatchSerializer,
        responses={200: NotificationSettingsSerializer, 400: ERROR_400, 401: ERROR_401},
    )
    def patch(self, request: Request) -> Response:
        serializer = NotificationSettingsPatchSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        return Response(
            services.update_settings(user=request_user(request), changes=serializer.validated_data)
        )


class PushKeyView(APIView):
    @extend_schema(
        tags=["notifications"],
        summary="The club's web push key",
        responses={200: PushKeySerializer, 401: ERROR_401},
    )
    def get(self, request: Request) -> Response:
        return Response({"public_key": webpush.application_server_key()})


class PushSubscriptionsView(APIView):
    @extend_schema(
        tags=["notifications"],
        summary="Take web pushes on this device",
        description="The body is the browser's `PushSubscription.toJSON()`. The same endpoint "
        "sent again replaces the keys (and the owner, when another user signed in there). At "
        "most 10 devices per user: one more drops the oldest. `push_endpoint_refused` (400): "
        "the endpoint is not a public push service over https (port 443, no user info, a host "
        "that is and resolves to public addresses only: no loopback, private, link-local, "
        "reserved, multicast or unspecified address, IPv4 or IPv6).",
        request=PushSubscriptionSerializer,
        responses={204: None, 400: ERROR_400, 401: ERROR_401},
    )
    def post(self, request: Request) -> Response:
        subscription = PushSubscriptionSerializer(data=request.data)
        subscription.is_valid(raise_exception=True)
        data = subscription.validated_data
        services.subscribe_push(
            user=request_user(request),
            endpoint=data["endpoint"],
            p256dh=data["keys"]["p256dh"],
            auth=data["keys"]["auth"],
        )
        return Response(status=204)

    @extend_schema(
        tags=["notifications"],
        summary="No more web pushes on this device",
        request=PushEndpointSerializer,
        responses={204: None, 400: ERROR_400, 401: ERROR_401},
    )
    def delete(self, request: Request) -> Response:
        device = PushEndpointSerializer(data=request.data)
        device.is_valid(raise_exception=True)
        services.unsubscribe_push(
            user=request_user(request), endpoint=device.validated_data["endpoint"]
        )
        return Response(status=204)
