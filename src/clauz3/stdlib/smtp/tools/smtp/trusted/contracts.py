"""Contracts over the smtp effects, in the email tutorial's words plus attachment rules.

``only``, ``none``, ``at_most``, ``unique_recipients``, ``recipient_at_most``,
``content_length_at_most`` and ``same_content`` mean what they mean for the tutorial's mock email,
so a person learns one language. Recipients are compared as whole addresses; a domain matches only
after the "@" (``a@example.com.evil`` is not at ``example.com``). Attachment scopes compare path
components: ``reports2/x`` is not under ``reports``.
"""

from tools.smtp.trusted.events import Attached, Message

from clauz3 import DirectoryPath, FilePath, spec
from clauz3.spec import ContractSpec, contract

_NEVER = "\x00"  # padding domain: no address passing the preconditions contains NUL


@contract(description="promises nothing about email")
def no_guarantees() -> ContractSpec:
    return spec.no_guarantees()


@contract(description="no email is sent")
def none() -> ContractSpec:
    return Message.empty()


@contract(description="every email goes to one of {addresses}")
def only(addresses: list[str]) -> ContractSpec:
    return Message.all(lambda e: e.to in addresses)


@contract(description="every email goes to an address at one of the domains {domains}")
def only_domains(domains: list[str]) -> ContractSpec:
    if not 1 <= len(domains) <= 4:
        raise ValueError("only_domains takes 1 to 4 domains")
    for d in domains:
        if not d or d != d.lower() or any(c in d for c in "@/ \\,;<>"):
            raise ValueError(f"domain {d!r} must be a lowercase domain name without @")
    d0, d1, d2, d3 = (list(domains) + [_NEVER] * 4)[:4]
    return Message.all(lambda e: e.to.endswith("@" + d0) or e.to.endswith("@" + d1)
                       or e.to.endswith("@" + d2) or e.to.endswith("@" + d3))


@contract(description="at most {count} emails are sent")
def at_most(count: int) -> ContractSpec:
    return Message.count() <= count


@contract(description="no address receives two emails")
def unique_recipients() -> ContractSpec:
    return Message.distinct(lambda e: e.to)


@contract(description="{addr} receives at most {count} emails")
def recipient_at_most(addr: str, count: int) -> ContractSpec:
    return Message.where(lambda e: e.to == addr).count() <= count


@contract(description="every email body is at most {max_chars} characters long")
def content_length_at_most(max_chars: int) -> ContractSpec:
    return Message.all(lambda e: len(e.body) <= max_chars)


@contract(description="no email's subject or body contains {text}")
def no_content_contains(text: str) -> ContractSpec:
    if not text:
        raise ValueError("no_content_contains needs non-empty text")
    return Message.all(lambda e: text not in e.subject and text not in e.body)


@contract(description="every email has the subject {subject}")
def subject_is(subject: str) -> ContractSpec:
    return Message.all(lambda e: e.subject == subject)


@contract(description="{left_addr} and {right_addr} receive at least one identical email body")
def same_content(left_addr: str, right_addr: str) -> ContractSpec:
    to_left = Message.where(lambda e: e.to == left_addr)
    to_right = Message.where(lambda e: e.to == right_addr)
    return to_left.shares_value(to_right, lambda e: e.body)


@contract(description="no email carries an attachment")
def no_attachments() -> ContractSpec:
    return Attached.empty()


@contract(description="at most {count} emails carry an attachment")
def attachments_at_most(count: int) -> ContractSpec:
    return Attached.count() <= count


@contract(description="only the files {paths} are attached")
def only_attach_files(paths: list[FilePath]) -> ContractSpec:
    allowed = [str(p) for p in paths] + ["./" + str(p) for p in paths]
    return Attached.all(lambda e: e.path in allowed)


def _under(d: str, inside: bool) -> ContractSpec:
    # Every spelling of a path under d that attachment_path admits: "d/…" and "./d/…"; "." covers all.
    whole = d == "."
    prefix = d + "/"
    dotted_prefix = "./" + d + "/"
    if inside:
        return Attached.all(lambda e: whole or e.path.startswith(prefix) or e.path.startswith(dotted_prefix))
    return Attached.all(lambda e: not (whole or e.path.startswith(prefix) or e.path.startswith(dotted_prefix)))


@contract(description="only files under {dir} are attached")
def only_attach_under(dir: DirectoryPath) -> ContractSpec:
    return _under(str(dir), True)


@contract(description="no file under {dir} is attached")
def never_attach_under(dir: DirectoryPath) -> ContractSpec:
    return _under(str(dir), False)


@contract(description="files are attached only to emails for {addresses}")
def attach_only_for(addresses: list[str]) -> ContractSpec:
    return Attached.all(lambda e: e.to in addresses)
