"""A websocket client made by hand over a plain TCP socket, for clients no library would be:
one that sends and never reads, with a receive buffer as small as the kernel allows."""

from __future__ import annotations

import base64
import json
import os
import socket
import struct
from typing import Any


class RawSocket:
    def __init__(self, port: int, path: str, *, receive_buffer: int = 4096) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        # Before connecting, so the window the server sees stays small.
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        self.sock.settimeout(10)
        self.sock.connect(("127.0.0.1", port))
        key = base64.b64encode(os.urandom(16)).decode()
        request = (
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\nOrigin: http://127.0.0.1\r\n\r\n"
        )
        self.sock.sendall(request.encode())
        answer = b""
        while b"\r\n\r\n" not in answer:
            answer += self.sock.recv(1)  # byte by byte: nothing past the handshake is read
        assert answer.startswith(b"HTTP/1.1 101"), answer

    def send_json(self, message: dict[str, Any]) -> None:
        """One masked text frame, as a client must send it."""
        payload = json.dumps(message).encode()
        assert len(payload) < 126
        mask = os.urandom(4)
        masked = bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))
        self.sock.sendall(struct.pack("!BB", 0x81, 0x80 | len(payload)) + mask + masked)

    def close(self) -> None:
        self.sock.close()
