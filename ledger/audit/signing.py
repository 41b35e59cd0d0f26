"""Signed tree heads (issue 28, item 3; docs/reliability.md): an Ed25519 key per
tournament or federation, and the head of the Merkle tree (size, root, time) signed
with it, so that a published digest can be attributed to whoever holds the key.

* **Keys** (``cli.py key new KEYFILE``): the private key is written as PKCS #8 PEM
  with mode 0600 (refused when it already exists); its public key beside it as
  ``KEYFILE.pub`` (SubjectPublicKeyInfo PEM), which is what is handed out. A private
  key file that group or others may read is refused, as ssh does.
* **Key id**: SHA-256 of the public key's DER SubjectPublicKeyInfo, hex (the
  log id of RFC 6962 section 3.2, RFC 9162's ``log_id`` is the same idea).
* **What is signed** (fixed width, no JSON): ``b"ledger-sth/1\\x00"`` followed by
  the size (8 bytes, big-endian), the timestamp in milliseconds since the epoch
  (8 bytes, big-endian), the root (32 bytes) and the key id (32 bytes). Changing
  any field of the head breaks the signature.
* **The signed head** is one JSON object (:data:`STH_FORMAT`):
  ``{format, size, root, digest, timestamp, time, key_id, public_key, signature}``;
  ``time`` is the ISO 8601 rendering of ``timestamp``, ``public_key`` the raw
  32 bytes in base64 (so the head can be checked alone), ``signature`` base64.

Checking a head needs no database (:func:`check_head`); it is only worth as much
as the key it is checked against, so ``--key KEYFILE.pub`` pins the key a
tournament published; without it the head's own key is used and the checker says so.

The library is ``cryptography`` (pyca): well kept, wheels for every platform,
Ed25519 from OpenSSL.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import os
import stat
import struct
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import attrs
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from ledger.errors import BadInput
from ledger.audit.merkle import Digest

STH_FORMAT = "ledger-signed-tree-head/1"
_TBS_PREFIX = b"ledger-sth/1\x00"


# --- keys -----------------------------------------------------------------------------

def key_id(public: Ed25519PublicKey) -> str:
    """SHA-256 of the DER SubjectPublicKeyInfo, hex."""
    der = public.public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    return hashlib.sha256(der).hexdigest()


def public_path(private_path: Path) -> Path:
    return private_path.with_name(private_path.name + ".pub")


def new_key(path: Path) -> str:
    """Write a new Ed25519 key to ``path`` (mode 0600, never over an existing file) and
    its public key to ``path.pub``; return the key id."""
    private = Ed25519PrivateKey.generate()
    pem = private.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption())
    pub = private.public_key().public_bytes(serialization.Encoding.PEM,
                                            serialization.PublicFormat.SubjectPublicKeyInfo)
    for target in (path, public_path(path)):
        if target.exists():
            raise BadInput("the file exists: a key is never overwritten (choose another name)",
                           field="KEYFILE", value=str(target))
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError as exc:
        raise BadInput(f"cannot create the key file: {exc.strerror}", field="KEYFILE",
                       value=str(path)) from None
    with os.fdopen(fd, "wb") as out:
        os.fchmod(out.fileno(), 0o600)  # whatever the umask
        out.write(pem)
    public_path(path).write_bytes(pub)
    return key_id(private.public_key())


def load_private_key(path: Path) -> Ed25519PrivateKey:
    """The private key of ``path``; refused when group or others may read it."""
    try:
        mode = path.stat().st_mode
        data = path.read_bytes()
    except OSError as exc:
        raise BadInput(f"cannot read the key file: {exc.strerror}", field="--sign", value=str(path)) from None
    if os.name == "posix" and mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise BadInput(f"the key file may be read by others (mode {stat.S_IMODE(mode):04o}); "
                       f"chmod 600 it", field="--sign", value=str(path))
    try:
        key = serialization.load_pem_private_key(data, password=None)
    except (ValueError, TypeError):
        raise BadInput("not an unencrypted PEM private key (write one with `cli.py key new`)",
                       field="--sign", value=str(path)) from None
    if not isinstance(key, Ed25519PrivateKey):
        raise BadInput("not an Ed25519 key", field="--sign", value=str(path))
    return key


def load_public_key(path: Path, field: str = "--key") -> Ed25519PublicKey:
    """A public key file (``KEYFILE.pub``), or the public half of a private key file."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise BadInput(f"cannot read the key file: {exc.strerror}", field=field, value=str(path)) from None
    key: Any
    try:
        key = serialization.load_pem_public_key(data)
    except (ValueError, TypeError):
        try:
            key = serialization.load_pem_private_key(data, password=None).public_key()
        except (ValueError, TypeError):
            raise BadInput("not a PEM public key (the KEYFILE.pub `cli.py key new` wrote)",
                           field=field, value=str(path)) from None
    if not isinstance(key, Ed25519PublicKey):
        raise BadInput("not an Ed25519 key", field=field, value=str(path))
    return key


# --- signed tree heads ------------------------------------------------------------------

def _iso(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, tz=timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


@attrs.frozen
class SignedTreeHead:
    size: int
    root: str  # 64 hex digits
    timestamp: int  # milliseconds since the epoch
    key_id: str  # 64 hex digits
    public_key: bytes  # raw 32 bytes
    signature: bytes

    @property
    def digest(self) -> Digest:
        return Digest(self.size, self.root)

    def to_json(self) -> dict[str, Any]:
        return {"format": STH_FORMAT, "size": self.size, "root": self.root,
                "digest": str(self.digest), "timestamp": self.timestamp, "time": _iso(self.timestamp),
                "key_id": self.key_id, "public_key": base64.b64encode(self.public_key).decode(),
                "signature": base64.b64encode(self.signature).decode()}


def signed_bytes(size: int, root: str, timestamp: int, kid: str) -> bytes:
    """What the key signs (module docstring)."""
    return _TBS_PREFIX + struct.pack(">QQ", size, timestamp) + bytes.fromhex(root) + bytes.fromhex(kid)


def sign_head(digest: Digest, private: Ed25519PrivateKey, timestamp: int | None = None) -> SignedTreeHead:
    if not digest.full:
        raise ValueError("only a full root is signed")
    ms = int(time.time() * 1000) if timestamp is None else timestamp
    public = private.public_key()
    kid = key_id(public)
    signature = private.sign(signed_bytes(digest.size, digest.root, ms, kid))
    return SignedTreeHead(digest.size, digest.root, ms, kid,
                          public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw),
                          signature)


def parse_head(value: object, field: str) -> SignedTreeHead:
    """A signed head from its JSON object; BadInput naming the field when its shape is wrong."""
    def bad(what: str, got: object) -> BadInput:
        return BadInput(f"not a signed tree head: {what}", field=field, value=got)

    if not isinstance(value, dict) or value.get("format") != STH_FORMAT:
        raise bad(f"the format is not {STH_FORMAT}", value if not isinstance(value, dict) else value.get("format"))
    for name in ("size", "timestamp"):
        if not isinstance(value.get(name), int) or isinstance(value.get(name), bool) or not 0 <= value[name] < 2 ** 63:
            raise bad(f"{name} must be a non-negative integer", value.get(name))
    for name in ("root", "key_id"):
        text = value.get(name)
        if not isinstance(text, str) or len(text) != 64 or any(c not in "0123456789abcdef" for c in text):
            raise bad(f"{name} must be 64 lower-case hex digits", text)
    raw: dict[str, bytes] = {}
    for name in ("public_key", "signature"):
        try:
            raw[name] = base64.b64decode(str(value.get(name)), validate=True)
        except (binascii.Error, ValueError):
            raise bad(f"{name} is not base64", value.get(name)) from None
    return SignedTreeHead(value["size"], value["root"], value["timestamp"], value["key_id"],
                          raw["public_key"], raw["signature"])


def check_head(head: SignedTreeHead, trusted: Ed25519PublicKey | None = None) -> list[str]:
    """What is wrong with a signed head (nothing: it is signed by the key it names, and
    by ``trusted`` when given)."""
    problems = []
    try:
        carried = Ed25519PublicKey.from_public_bytes(head.public_key)
    except ValueError:
        return ["the head's public key is not an Ed25519 key"]
    key = trusted if trusted is not None else carried
    if key_id(carried) != head.key_id:
        problems.append("the head's key id is not the id of the key it carries")
    if trusted is not None and key_id(trusted) != head.key_id:
        problems.append(f"signed by key {head.key_id[:16]}…, not by the key given "
                        f"({key_id(trusted)[:16]}…)")
        return problems
    try:
        key.verify(head.signature, signed_bytes(head.size, head.root, head.timestamp, head.key_id))
    except InvalidSignature:
        problems.append("the signature does not match the head (size, root, time or key id changed, "
                        "or signed by another key)")
    return problems


def read_head(text: str, field: str) -> tuple[Digest, SignedTreeHead | None]:
    """A published head as given on the command line: a digest (``SIZE:ROOT`` or its short
    form), or the name of a file holding one or a signed head (JSON, ``digest --sign``)."""
    value = text.strip()
    try:
        return Digest.parse(value), None
    except BadInput:
        pass
    try:
        content = Path(value).read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as exc:
        raise BadInput(f"neither a digest (SIZE:ROOT) nor a readable file "
                       f"({getattr(exc, 'strerror', None) or exc})", field=field, value=text) from None
    if content.startswith("{"):
        try:
            data = json.loads(content)
        except (json.JSONDecodeError, RecursionError):
            raise BadInput("the file is not readable JSON", field=field, value=text) from None
        head = parse_head(data, field)
        return head.digest, head
    try:
        return Digest.parse(content), None
    except BadInput as exc:
        raise BadInput(f"the file holds neither a digest nor a signed head ({exc.reason})",
                       field=field, value=text) from None
