"""Where the club may send a web push: a public push service over https, nothing inward.

A push endpoint is a URL a browser hands over, so anybody can name any URL. The club takes only
`https` on port 443, without user info, to a host that is a public address, or a name every
address of which is public: no loopback, private, shared, link-local, reserved, documentation,
multicast or unspecified address, IPv4 or IPv6, nor an IPv4 address carried inside IPv6
(IPv4-mapped, 6to4, Teredo, NAT64). It is checked when a browser subscribes and again on every
connection a push makes, since a name can be re-pointed after the check: the connection goes to
the very address just checked (notifications.webpush).

settings.PUSH_ALLOW_LOOPBACK (tests only, never from the environment) lets in loopback
addresses over http or https: the tests' fake push service on 127.0.0.1.
"""

import ipaddress
import socket
from urllib.parse import SplitResult, urlsplit

from django.conf import settings

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

HTTPS_PORT = 443
# IPv4 inside IPv6 through the well-known NAT64 prefix (RFC 6052): a gateway would reach it.
NAT64 = ipaddress.IPv6Network("64:ff9b::/96")


class EndpointRefused(ValueError):
    """The endpoint is not a public push service; `reason` says why (for logs and the API)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def check(endpoint: str) -> list[str]:
    """Refuse (EndpointRefused) an endpoint that is not a public https push service; returns
    the host's addresses, all checked (resolving a name)."""
    url = checked_url(endpoint)
    assert url.hostname is not None  # checked_url refuses a URL without a host
    return public_addresses(url.hostname, url.port or HTTPS_PORT)


def checked_url(endpoint: str) -> SplitResult:
    """The endpoint's parts, refused (EndpointRefused) unless https on the default port without
    user info; a literal IP address is judged here, a name only once resolved."""
    try:
        url = urlsplit(endpoint)
        port = url.port
    except ValueError as error:
        raise EndpointRefused(f"not a URL: {error}") from error
    loopback_allowed = settings.PUSH_ALLOW_LOOPBACK
    if url.scheme != "https" and not (loopback_allowed and url.scheme == "http"):
        raise EndpointRefused("not https")
    if not url.hostname:
        raise EndpointRefused("no host")
    if url.username is not None or url.password is not None:
        raise EndpointRefused("user info in the URL")
    if port not in (None, HTTPS_PORT) and not loopback_allowed:
        raise EndpointRefused(f"port {port}: push services answer on {HTTPS_PORT}")
    literal = _literal_address(url.hostname)
    if literal is not None:
        _refuse_inward(literal)
    return url


def public_addresses(host: str, port: int) -> list[str]:
    """Every address `host` resolves to (a literal: itself), each checked; EndpointRefused when
    it resolves to nothing or to any address that is not public."""
    literal = _literal_address(host)
    if literal is not None:
        _refuse_inward(literal)
        return [str(literal)]
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as error:
        raise EndpointRefused(f"{host} does not resolve: {error}") from error
    addresses: list[str] = []
    for _family, _type, _proto, _name, sockaddr in found:
        address = ipaddress.ip_address(str(sockaddr[0]).split("%", 1)[0])
        _refuse_inward(address, host=host)
        if str(address) not in addresses:
            addresses.append(str(address))
    if not addresses:
        raise EndpointRefused(f"{host} does not resolve")
    return addresses


def _literal_address(host: str) -> IPAddress | None:
    try:
        return ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return None


def _refuse_inward(address: IPAddress, *, host: str | None = None) -> None:
    if settings.PUSH_ALLOW_LOOPBACK and address.is_loopback:
        return
    reason = inward(address)
    if reason is not None:
        named = f"{host} resolves to {address}" if host else str(address)
        raise EndpointRefused(f"{named}: {reason} address")


def inward(address: IPAddress) -> str | None:
    """What kind of non-public address this is, or None for a public one."""
    if isinstance(address, ipaddress.IPv6Address):
        for carried in _carried_ipv4(address):
            reason = inward(carried)
            if reason is not None:
                return f"{reason} (IPv4 in IPv6)"
        if address.ipv4_mapped is not None:
            return None  # judged by the IPv4 address it maps
        if address.is_site_local:
            return "site-local"
    for kind in ("unspecified", "loopback", "link_local", "multicast", "private", "reserved"):
        if getattr(address, f"is_{kind}"):
            return kind.replace("_", "-")
    if not address.is_global:
        return "non-global"  # e.g. 100.64.0.0/10, the carriers' shared space
    return None


def _carried_ipv4(address: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    carried = [address.ipv4_mapped, address.sixtofour]
    if address.teredo is not None:
        carried.extend(address.teredo)
    if address in NAT64:
        carried.append(ipaddress.IPv4Address(int(address) & 0xFFFFFFFF))
    return [ipv4 for ipv4 in carried if ipv4 is not None]
