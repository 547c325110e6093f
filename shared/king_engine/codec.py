"""The unsigned varint of the stored match states (LEB128: seven bits a byte, low first)."""

from __future__ import annotations


def varint(value: int) -> bytes:
    """``value`` (at least 0) as a varint."""
    out = bytearray()
    while value >= 0x80:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)
