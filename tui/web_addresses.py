"""The addresses ``papers serve`` prints: the ones another device can type.

Bound to every address (``--host 0.0.0.0``, or ``::``), the server printed the machine's
name, which a tablet on the same network often cannot resolve (no local DNS; Debian's
``/etc/hosts`` maps it to 127.0.1.1). It prints the machine's own addresses instead, found
without a packet leaving it:

- the address each route to a private network would leave from: a UDP socket "connected" to
  an address of 10/8, 172.16/12, 192.168/16 (and an IPv6 one) sends nothing, and the kernel
  picks its source address (``getsockname``);
- the addresses the machine's name resolves to (``/etc/hosts``, or whatever the system's
  resolver says of its own name: on many systems, every interface's address);

less loopback, unspecified, multicast and IPv6 link-local ones (a browser cannot reach
``fe80::`` without the interface's zone), then the loopback address, for this machine's own
browser.
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket

#: Addresses of private networks (and IPv6's documentation prefix, routed by the default
#: route) whose route's source address is an address of this machine. Nothing is sent.
PROBES = {
    socket.AF_INET: ("10.254.254.254", "172.31.254.254", "192.168.254.254"),
    socket.AF_INET6: ("fd00::fe", "2001:db8::fe"),
}
Address = ipaddress.IPv4Address | ipaddress.IPv6Address


def _reachable(address: Address) -> bool:
    """Whether another device could reach this machine at ``address``."""
    return not (
        address.is_loopback
        or address.is_unspecified
        or address.is_multicast
        or (address.version == 6 and address.is_link_local)
    )


def _routed_from(family: socket.AddressFamily) -> list[str]:
    """The source addresses of this machine's routes to the private probes of ``family``."""
    found = []
    for target in PROBES.get(family, ()):
        with contextlib.suppress(OSError), socket.socket(family, socket.SOCK_DGRAM) as probe:
            probe.connect((target, 9))  # UDP: nothing is sent, a route is chosen
            found.append(str(probe.getsockname()[0]))
    return found


def _named(family: socket.AddressFamily) -> list[str]:
    """The addresses of ``family`` the machine's own name resolves to."""
    try:
        found = socket.getaddrinfo(socket.gethostname(), None, family, socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        return []
    return [str(info[4][0]) for info in found]


def machine_addresses(families: tuple[socket.AddressFamily, ...]) -> list[Address]:
    """This machine's addresses of ``families`` another device may reach, found without
    network traffic: IPv4 first, each once, in the order found."""
    seen: dict[Address, None] = {}
    for family in families:
        for text in [*_routed_from(family), *_named(family)]:
            try:
                address = ipaddress.ip_address(text.split("%", 1)[0])
            except ValueError:
                continue
            if _reachable(address):
                seen.setdefault(address, None)
    return list(seen)


def _families(sock: socket.socket) -> tuple[socket.AddressFamily, ...]:
    """The families a socket bound to every address accepts: IPv4 alone, or IPv6 and (unless
    the socket is IPv6-only, Linux's default being dual stack) IPv4."""
    if sock.family != socket.AF_INET6:
        return (socket.AF_INET,)
    try:
        only6 = sock.getsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY)
    except (OSError, AttributeError):
        only6 = 1
    return (socket.AF_INET6,) if only6 else (socket.AF_INET, socket.AF_INET6)


def _url(host: str, port: int, token: str | None) -> str:
    host = f"[{host}]" if ":" in host else host
    return f"http://{host}:{port}/" + (f"?token={token}" if token else "")


def page_addresses(sock: socket.socket, token: str | None) -> list[tuple[str, str]]:
    """The addresses to open, as the user types them, each with whom it is for: bound to
    one address, that one; bound to every address, each of the machine's own that another
    device may reach, then the loopback one (this machine's browser)."""
    host, port = sock.getsockname()[:2]
    if host not in ("0.0.0.0", "::"):
        return [(_url(host, port, token), "")]
    families = _families(sock)
    found = [
        (_url(str(address), port, token), "another device on this network")
        for address in machine_addresses(families)
    ]
    loopback = "127.0.0.1" if socket.AF_INET in families else "::1"
    return [*found, (_url(loopback, port, token), "this machine")]
