"""The run command's port probe: a port is busy only when something listens on it, and the
refusal says what listens. A client still connected to a stack that has stopped (a browser
tab) leaves its server-side socket in FIN-WAIT-2; gunicorn binds beside it, so the probe must
too."""

from __future__ import annotations

import os
import socket
import time
from pathlib import Path

import pytest

from king_devservers import free_port
from king_devservers.stack import Stack, StackError, StackSettings, busy_ports, port_listener


def _listener(port: int) -> socket.socket:
    """A listening socket as gunicorn makes one (SO_REUSEADDR)."""
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", port))
    server.listen()
    return server


def _server_state(port: int) -> set[str]:
    """The TCP states of the sockets whose local port is ``port`` (from /proc/net/tcp)."""
    names = {"01": "ESTABLISHED", "04": "FIN_WAIT1", "05": "FIN_WAIT2", "06": "TIME_WAIT"}
    states = set()
    with open("/proc/net/tcp", encoding="ascii") as lines:
        next(lines)
        for line in lines:
            fields = line.split()
            if int(fields[1].rsplit(":", 1)[1], 16) == port:
                states.add(names.get(fields[3], fields[3]))
    return states


def _settings(tmp_path: Path, game_port: int) -> StackSettings:
    return StackSettings(data_dir=tmp_path / "var", game_port=game_port, rating_port=free_port())


def test_a_port_left_with_only_a_closed_servers_connection_is_free(tmp_path: Path) -> None:
    port = free_port()
    server = _listener(port)
    client = socket.create_connection(("127.0.0.1", port), 5)
    accepted, _ = server.accept()
    try:
        # The server stops while the client stays connected: the server's side of the
        # connection waits in FIN-WAIT-2 for the client's FIN, still bound to the port.
        accepted.close()
        server.close()
        deadline = time.monotonic() + 5
        while "FIN_WAIT2" not in _server_state(port) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert "FIN_WAIT2" in _server_state(port)
        assert busy_ports(_settings(tmp_path, port)) == []
        assert port_listener(port) == ""
        # And gunicorn's own bind (SO_REUSEADDR) does succeed there.
        _listener(port).close()
    finally:
        client.close()


def test_a_listening_port_is_busy_and_the_refusal_says_who_listens(tmp_path: Path) -> None:
    port = free_port()
    server = _listener(port)
    try:
        settings = _settings(tmp_path, port)
        assert busy_ports(settings) == [port]
        who = port_listener(port)
        assert who.startswith(f"pid {os.getpid()} ("), who
        with pytest.raises(StackError) as refused:
            Stack(settings).start()  # (refuses before it starts any backend)
        message = str(refused.value)
        assert f"port {port} (pid {os.getpid()} " in message, message
        assert "listens on it" in message and "KING_GAME_PORT" in message
    finally:
        server.close()


def test_a_reuse_port_listener_is_busy_too(tmp_path: Path) -> None:
    # The game service's gunicorn listens with SO_REUSEPORT; a probe without that option
    # cannot bind beside it, so another stack's game service still counts.
    port = free_port()
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    server.bind(("127.0.0.1", port))
    server.listen()
    try:
        assert busy_ports(_settings(tmp_path, port)) == [port]
    finally:
        server.close()
