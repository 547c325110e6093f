"""A TCP forwarder that tests put in front of a server (Postgres) to take it down and bring it
back, used by the rating and game outage tests."""

from __future__ import annotations

import contextlib
import socket
import threading

from psycopg.conninfo import make_conninfo


class TcpProxy:
    """A TCP forwarder in front of a server that a test can take down and bring back."""

    def __init__(self, target_host: str, target_port: int) -> None:
        self.target = (target_host, target_port)
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(64)
        self.port: int = self.listener.getsockname()[1]
        self.up = True
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        self._closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if not self.up:
                client.close()
                continue
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            upstream.settimeout(None)
            with self._lock:
                if not self.up:  # went down while we were connecting
                    client.close()
                    upstream.close()
                    continue
                self._sockets += [client, upstream]
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                sink.sendall(data)
        for sock in (source, sink):
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)

    def down(self) -> None:
        """Refuse new connections and cut every open one, as if the server went away."""
        self.up = False
        with self._lock:
            sockets, self._sockets = self._sockets, []
        for sock in sockets:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()

    def restore(self) -> None:
        self.up = True

    def close(self) -> None:
        self._closed = True
        self.down()
        self.listener.close()

    def url_for(self, conninfo: str) -> str:
        return make_conninfo(conninfo, host="127.0.0.1", hostaddr="127.0.0.1", port=self.port)
