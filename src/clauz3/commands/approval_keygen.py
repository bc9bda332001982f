"""``clauz3 approval-keygen [--out DIR] [--force]`` (03 CLI-6)."""

from __future__ import annotations

import argparse
from pathlib import Path

from clauz3.commands._errors import CommandError

HELP = "Generate an Ed25519 receipt signing key and its verifying key."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", metavar="DIR", help="write signing.key and verify.key (0600) into DIR (0700)")
    parser.add_argument("--force", action="store_true", help="replace existing key files in DIR")


def run(args: argparse.Namespace) -> int:
    from clauz3.approvals.keys import SigningKey, write_keypair
    from clauz3.storage.secretfiles import InsecureFileError

    if args.out is None:
        key = SigningKey.generate()
        print("# keep secret: the signing key lets its holder approve any program")
        print(f"CLAUZ3_APPROVAL_SIGNING_KEY={key.text}")
        print(f"CLAUZ3_APPROVAL_VERIFY_KEY={key.verify_key.text}")
        return 0
    out = Path(args.out).expanduser()
    try:
        key, signing, verify = write_keypair(out, force=args.force)
    except FileExistsError as exc:
        raise CommandError(str(exc).strip("'\"") if str(exc) else f"{out}: key files already exist") from exc
    except InsecureFileError as exc:
        raise CommandError(str(exc)) from exc
    except OSError as exc:
        raise CommandError(f"cannot write keys into {out}: {exc.strerror or exc}") from exc
    print(f"CLAUZ3_APPROVAL_VERIFY_KEY={key.verify_key.text}")
    print(f"signing key: {signing}")
    print(f"verifying key: {verify}")
    return 0
