"""Contracts of the filesystem library: which files are read, listed, written, created, deleted or chmod-ed.

Scopes compare path components: "output2/a" is not under "output", and "./output/a" is. The
directory "." covers the whole project. These contracts describe only this library's effects.
"""

from tools.filesystem.trusted.events import Change, Chmod, Create, Delete, List, Read, Write

from clauz3 import DirectoryPath, FilePath, spec
from clauz3.events import Event
from clauz3.spec import ContractSpec, contract


def _under(relation: spec.Relation | type[Event], d: str, inside: bool) -> spec.AllSpec:
    # Every spelling of a path under d that the effects' path grammar admits: "d", "d/…", "./d",
    # "./d/…" (a trailing "/" is covered by the "d/" prefix). d == "." covers everything.
    whole = d == "."
    prefix = d + "/"
    dotted = "./" + d
    dotted_prefix = "./" + d + "/"
    if inside:
        return relation.all(lambda e: whole or e.path == d or e.path.startswith(prefix) or e.path == dotted or e.path.startswith(dotted_prefix))
    return relation.all(lambda e: not (whole or e.path == d or e.path.startswith(prefix) or e.path == dotted or e.path.startswith(dotted_prefix)))


def _spellings(paths: list[FilePath]) -> list[str]:
    return [str(p) for p in paths] + ["./" + str(p) for p in paths]


@contract(description="promises nothing about files")
def no_guarantees() -> ContractSpec:
    return spec.no_guarantees()


@contract(description="the filesystem library only reads and lists: no file is written, created, deleted or chmod-ed")
def read_only() -> ContractSpec:
    # One relation over the common base event (Write, Create, Delete and Chmod are all Changes).
    return Change.empty()


@contract(description="the filesystem library reads no file")
def no_reads() -> ContractSpec:
    return Read.empty()


@contract(description="the filesystem library reads only the files {paths}")
def only_read_files(paths: list[FilePath]) -> ContractSpec:
    allowed = _spellings(paths)
    return Read.all(lambda e: e.path in allowed)


@contract(description="the filesystem library reads only files under {dir}")
def only_read_under(dir: DirectoryPath) -> ContractSpec:
    return _under(Read, str(dir), True)


@contract(description="the filesystem library reads no file under {dir}")
def never_read_under(dir: DirectoryPath) -> ContractSpec:
    return _under(Read, str(dir), False)


@contract(description="the filesystem library reads files at most {n} times")
def reads_at_most(n: int) -> ContractSpec:
    return Read.count() <= n


@contract(description="the filesystem library lists or searches only directories under {dir}")
def only_list_under(dir: DirectoryPath) -> ContractSpec:
    return _under(List, str(dir), True)


@contract(description="the filesystem library lists or searches directories at most {n} times")
def lists_at_most(n: int) -> ContractSpec:
    return List.count() <= n


@contract(description="the filesystem library writes no file content")
def no_writes() -> ContractSpec:
    return Write.empty()


@contract(description="the filesystem library writes content only to the files {paths}")
def only_write_files(paths: list[FilePath]) -> ContractSpec:
    allowed = _spellings(paths)
    return Write.all(lambda e: e.path in allowed)


@contract(description="the filesystem library writes content only to files under {dir}")
def only_write_under(dir: DirectoryPath) -> ContractSpec:
    return _under(Write, str(dir), True)


@contract(description="the filesystem library writes no content to files under {dir}")
def never_write_under(dir: DirectoryPath) -> ContractSpec:
    return _under(Write, str(dir), False)


@contract(description="the filesystem library writes file content at most {n} times")
def writes_at_most(n: int) -> ContractSpec:
    return Write.count() <= n


@contract(description="every text the filesystem library writes is at most {n} characters long (copies and moves cannot be proved)")
def write_length_at_most(n: int) -> ContractSpec:
    return Write.all(lambda e: len(e.text) <= n)


@contract(description="no text the filesystem library writes contains {text} (copies and moves cannot be proved)")
def writes_must_not_contain(text: str) -> ContractSpec:
    return Write.all(lambda e: text not in e.text)


@contract(description="the filesystem library deletes nothing")
def no_deletes() -> ContractSpec:
    return Delete.empty()


@contract(description="the filesystem library deletes only under {dir}")
def only_delete_under(dir: DirectoryPath) -> ContractSpec:
    return _under(Delete, str(dir), True)


@contract(description="the filesystem library deletes at most {n} times")
def deletes_at_most(n: int) -> ContractSpec:
    return Delete.count() <= n


@contract(description="the filesystem library creates no file or directory")
def no_creates() -> ContractSpec:
    return Create.empty()


@contract(description="the filesystem library creates files or directories at most {n} times")
def creates_at_most(n: int) -> ContractSpec:
    return Create.count() <= n


@contract(description="the filesystem library changes no permission bits")
def no_chmods() -> ContractSpec:
    return Chmod.empty()


@contract(description="the filesystem library sets permission bits only to one of {modes}")
def only_modes(modes: list[int]) -> ContractSpec:
    return Chmod.all(lambda e: e.mode in modes)
