"""Ed25519 keys in the 03 §2 text form (raw 32 bytes, base64url without padding) and key ids."""

from __future__ import annotations

import base64
import binascii
import hashlib
from dataclasses import dataclass
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from clauz3.approvals.errors import ApprovalError
from clauz3.storage.secretfiles import read_secret, write_secret


class KeyError_(ApprovalError, ValueError):
    """A key text that is not 43 base64url characters encoding 32 bytes."""

    def __init__(self, message: str) -> None:
        super().__init__("invalid_key", message)


def b64u_encode(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64u_decode(text: str) -> bytes:
    """Strict base64url without padding; raises ``ValueError`` on anything else."""
    if not isinstance(text, str) or not text.isascii() or "=" in text:
        raise ValueError("not base64url text")
    allowed = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    if any(ch not in allowed for ch in text) or len(text) % 4 == 1:
        raise ValueError("not base64url text")
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError) as exc:
        raise ValueError("not base64url text") from exc
    if b64u_encode(raw) != text:  # non-canonical trailing bits would give two spellings of one value
        raise ValueError("not canonical base64url text")
    return raw


def _raw32(text: str, what: str) -> bytes:
    try:
        raw = b64u_decode(text.strip())
    except ValueError as exc:
        raise KeyError_(f"{what} is not base64url text") from exc
    if len(raw) != 32:
        raise KeyError_(f"{what} must encode 32 bytes (43 base64url characters)")
    return raw


def key_id(raw_public: bytes) -> str:
    """First 16 hex of sha256(raw verifying key) — the receipt ``kid``."""
    return hashlib.sha256(raw_public).hexdigest()[:16]


@dataclass(frozen=True)
class VerifyKey:
    raw: bytes

    @classmethod
    def from_text(cls, text: str) -> VerifyKey:
        raw = _raw32(text, "verifying key")
        Ed25519PublicKey.from_public_bytes(raw)
        return cls(raw)

    @property
    def text(self) -> str:
        return b64u_encode(self.raw)

    @property
    def kid(self) -> str:
        return key_id(self.raw)

    def verify(self, signature: bytes, data: bytes) -> bool:
        try:
            Ed25519PublicKey.from_public_bytes(self.raw).verify(signature, data)
        except InvalidSignature:
            return False
        return True

    def __repr__(self) -> str:
        return f"VerifyKey(kid={self.kid})"


@dataclass(frozen=True)
class SigningKey:
    raw: bytes

    @classmethod
    def generate(cls) -> SigningKey:
        key = Ed25519PrivateKey.generate()
        return cls(key.private_bytes(serialization.Encoding.Raw, serialization.PrivateFormat.Raw,
                                     serialization.NoEncryption()))

    @classmethod
    def from_text(cls, text: str) -> SigningKey:
        return cls(_raw32(text, "signing key"))

    @property
    def text(self) -> str:
        return b64u_encode(self.raw)

    @property
    def verify_key(self) -> VerifyKey:
        public = Ed25519PrivateKey.from_private_bytes(self.raw).public_key()
        return VerifyKey(public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw))

    def sign(self, data: bytes) -> bytes:
        return Ed25519PrivateKey.from_private_bytes(self.raw).sign(data)

    def __repr__(self) -> str:  # never print the secret, even by accident in a traceback
        return f"SigningKey(kid={self.verify_key.kid})"


def read_signing_key_file(path: Path) -> SigningKey:
    """One line holding the key text; the file must pass CRED-3 (else ``InsecureFileError``)."""
    data = read_secret(path)
    try:
        text = data.decode("ascii").strip()
    except UnicodeDecodeError as exc:
        raise KeyError_(f"{path}: signing key is not base64url text") from exc
    return SigningKey.from_text(text)


def write_keypair(out_dir: Path, *, force: bool = False) -> tuple[SigningKey, Path, Path]:
    """``approval-keygen --out``: ``signing.key`` and ``verify.key`` (0600) in ``out_dir`` (0700)."""
    key = SigningKey.generate()
    signing_path = out_dir / "signing.key"
    verify_path = out_dir / "verify.key"
    if not force:
        for path in (signing_path, verify_path):
            if path.exists() or path.is_symlink():
                raise FileExistsError(f"{path} already exists (use --force to replace it)")
    write_secret(signing_path, (key.text + "\n").encode("ascii"), force=force)
    write_secret(verify_path, (key.verify_key.text + "\n").encode("ascii"), force=force)
    return key, signing_path, verify_path
