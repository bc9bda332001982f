"""Bodies of the ``filesystem`` effects (05 §11.1), confined to the run's project root.

Every function takes project-relative path text, resolves it with :mod:`clauz3.stdlib.safefs`
(FS-1, FS-2), journals mutations (FS-4) and writes content atomically (FS-3). Errors are
:class:`~clauz3.stdlib.safefs.FsError` naming the path.
"""

from __future__ import annotations

import fnmatch
import os
import stat
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

from clauz3.stdlib.filejournal import journaled
from clauz3.stdlib.runtime import RunContext, get_run_context
from clauz3.stdlib.safefs import (
    FsError,
    atomic_write,
    check_mutable,
    default_mode,
    lstat_at,
    open_dir,
    open_parent,
    open_regular,
    project_fd,
    segments,
)

__all__ = [
    "append_file", "chmod", "copy", "edit_lines", "find", "grep", "list_dir", "make_dir", "move", "read_file",
    "read_line", "read_lines", "remove", "replace_text", "split_lines", "touch", "write_file",
]

READ_CAP = 8 * 1024 * 1024
CHANGE_CAP = 64 * 1024 * 1024
LIST_CAP = 10_000


def _shown(segs: list[str]) -> str:
    return "/".join(segs) or "."


@contextmanager
def _parent(path: str, *, what: str = "path", mutate: bool = False) -> Iterator[tuple[RunContext, int, str, str]]:
    ctx = get_run_context()
    segs = segments(path, what=what)
    if mutate:  # FS-2 before anything is opened, so a missing protected folder reads as protected
        check_mutable(segs, ctx.protected, _shown(segs))
    with project_fd(ctx.project_root) as root, open_parent(root, segs) as (dirfd, name):
        yield ctx, dirfd, name, _shown(segs)


def _read_bytes(dirfd: int, name: str, shown: str, cap: int) -> tuple[bytes, os.stat_result]:
    fd = open_regular(dirfd, name, shown)
    try:
        st = os.fstat(fd)
        chunks = []
        size = 0
        while chunk := os.read(fd, 1 << 20):
            size += len(chunk)
            if size > cap:
                raise FsError(f"file too large: {shown} (more than {cap} bytes)")
            chunks.append(chunk)
        return b"".join(chunks), st
    finally:
        os.close(fd)


def _decode(data: bytes, shown: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FsError(f"not UTF-8 text: {shown} (byte {exc.start})") from None


def _read_text(path: str, cap: int = READ_CAP) -> str:
    with _parent(path) as (_, dirfd, name, shown):
        data, _ = _read_bytes(dirfd, name, shown, cap)
    return _decode(data, shown)


def split_lines(text: str) -> list[str]:
    """Lines split on ``\\n`` with one trailing ``\\r`` stripped; a final newline adds no empty line."""
    if text == "":
        return []
    parts = text.split("\n")
    if text.endswith("\n"):
        parts.pop()
    return [p[:-1] if p.endswith("\r") else p for p in parts]


def read_file(path: str) -> str:
    return _read_text(path)


def read_lines(path: str) -> list[str]:
    return split_lines(_read_text(path))


def read_line(path: str, line_number: int) -> str:
    lines = read_lines(path)
    if not 1 <= line_number <= len(lines):
        raise FsError(f"line_number {line_number} is out of range: {path} has {len(lines)} lines")
    return lines[line_number - 1]


def grep(pattern: str, path: str) -> list[str]:
    if pattern == "":
        raise FsError("pattern must not be empty")
    return [line for line in read_lines(path) if pattern in line][:LIST_CAP]


def list_dir(path: str) -> list[str]:
    ctx = get_run_context()
    segs = segments(path)
    with project_fd(ctx.project_root) as root, open_dir(root, segs) as dirfd:
        names = []
        with os.scandir(dirfd) as it:
            for entry in it:
                names.append(entry.name + "/" if entry.is_dir(follow_symlinks=False) else entry.name)
                if len(names) > LIST_CAP:
                    raise FsError(f"more than {LIST_CAP} entries in {_shown(segs)}")
    return sorted(names)


def find(path: str, name: str, kind: str, max_depth: int) -> list[str]:
    if kind not in ("any", "file", "dir"):
        raise FsError(f"kind must be any, file or dir, not {kind!r}")
    if not 1 <= max_depth <= 32:
        raise FsError(f"max_depth must be between 1 and 32, not {max_depth}")
    ctx = get_run_context()
    segs = segments(path)
    found: list[str] = []

    def walk(dirfd: int, prefix: list[str], depth: int) -> None:
        with os.scandir(dirfd) as it:
            entries = sorted((e.name, e.is_dir(follow_symlinks=False), e.is_file(follow_symlinks=False)) for e in it)
        for entry_name, is_dir, is_file in entries:
            rel = [*prefix, entry_name]
            wanted = kind == "any" or (kind == "dir" and is_dir) or (kind == "file" and is_file)
            if wanted and fnmatch.fnmatchcase(entry_name, name):
                found.append("/".join(rel))
                if len(found) > LIST_CAP:
                    raise FsError(f"more than {LIST_CAP} matches under {_shown(segs)}")
            if is_dir and depth < max_depth:
                try:
                    sub = os.open(entry_name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=dirfd)
                except OSError:
                    continue  # swapped for a link or unreadable: skipped, never followed
                try:
                    walk(sub, rel, depth + 1)
                finally:
                    os.close(sub)

    with project_fd(ctx.project_root) as root, open_dir(root, segs) as dirfd:
        walk(dirfd, segs, 1)
    return sorted(found)


def _existing_target(dirfd: int, name: str, shown: str, *, must_exist: bool) -> os.stat_result | None:
    st = lstat_at(dirfd, name)
    if st is None:
        if must_exist:
            raise FsError(f"no such file: {shown}")
        return None
    if stat.S_ISLNK(st.st_mode):
        raise FsError(f"symbolic link refused: {shown}")
    if stat.S_ISDIR(st.st_mode):
        raise FsError(f"is a directory: {shown}")
    if not stat.S_ISREG(st.st_mode):
        raise FsError(f"special file refused: {shown}")
    if st.st_nlink > 1:
        raise FsError(f"protected path: {shown} (file has more than one hard link)")
    return st


def _replace_content(op: str, path: str, change: object, *, must_exist: bool, replace: bool = True) -> None:
    """Shared FS-2/3/4 path of every content change. ``change(old_text or None) -> new bytes``."""
    with _parent(path, mutate=True) as (ctx, dirfd, name, shown):
        st = _existing_target(dirfd, name, shown, must_exist=must_exist)
        if st is not None and not replace:
            raise FsError(f"already exists: {shown}")
        old = None
        if st is not None and op != "write_file":
            data, _ = _read_bytes(dirfd, name, shown, CHANGE_CAP)
            old = _decode(data, shown)
        new = change(old)  # type: ignore[operator]  # change is called as documented above; typed object so each caller's lambda keeps its own narrower parameter
        mode = stat.S_IMODE(st.st_mode) if st is not None else default_mode()
        with journaled(ctx.journal_fd, op, [(dirfd, name, shown)]):
            atomic_write(dirfd, name, new, mode, shown)


def write_file(path: str, content: str) -> None:
    _replace_content("write_file", path, lambda _old: content.encode("utf-8"), must_exist=False)


def append_file(path: str, text: str) -> None:
    _replace_content("append_file", path, lambda old: (old + text).encode("utf-8"), must_exist=True)


def replace_text(path: str, old: str, new: str) -> None:
    if old == "":
        raise FsError("old must not be empty")

    def change(current: str | None) -> bytes:
        assert current is not None
        count = current.count(old)
        if count != 1:
            raise FsError(f"old must occur exactly once in {path}, found {count} occurrences")
        return current.replace(old, new, 1).encode("utf-8")

    _replace_content("replace_text", path, change, must_exist=True)


def edit_lines(path: str, start: int, end: int, text: str) -> None:
    if start < 1 or end < start:
        raise FsError(f"invalid line range {start}..{end} (1-based, start <= end)")

    def change(current: str | None) -> bytes:
        assert current is not None
        lines = _newline_split(current)
        if end > len(lines):
            raise FsError(f"end {end} is out of range: {path} has {len(lines)} lines")
        replaced_had_newline = lines[end - 1].endswith("\n")
        block = text
        if block and not block.endswith("\n") and (replaced_had_newline or end < len(lines)):
            block += "\n"
        return ("".join(lines[: start - 1]) + block + "".join(lines[end:])).encode("utf-8")

    _replace_content("edit_lines", path, change, must_exist=True)


def _newline_split(text: str) -> list[str]:
    # Lines with their "\n" kept, split only on "\n" (so "\r" and other separators stay inside lines).
    if text == "":
        return []
    parts = text.split("\n")
    out = [p + "\n" for p in parts[:-1]]
    if parts[-1]:
        out.append(parts[-1])
    return out


def make_dir(path: str) -> None:
    with _parent(path, mutate=True) as (ctx, dirfd, name, shown):
        if lstat_at(dirfd, name) is not None:
            raise FsError(f"already exists: {shown}")
        with journaled(ctx.journal_fd, "make_dir", [(dirfd, name, shown)]):
            try:
                os.mkdir(name, 0o777, dir_fd=dirfd)
            except OSError as exc:
                raise FsError(f"cannot create {shown}: {exc.strerror}") from None


def touch(path: str) -> None:
    with _parent(path, mutate=True) as (ctx, dirfd, name, shown):
        st = lstat_at(dirfd, name)
        if st is not None:
            if stat.S_ISLNK(st.st_mode):
                raise FsError(f"symbolic link refused: {shown}")
            return
        with journaled(ctx.journal_fd, "touch", [(dirfd, name, shown)]):
            try:
                fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o666,
                             dir_fd=dirfd)
            except OSError as exc:
                raise FsError(f"cannot create {shown}: {exc.strerror}") from None
            os.fsync(fd)
            os.close(fd)
            os.fsync(dirfd)


def remove(path: str) -> None:
    with _parent(path, mutate=True) as (ctx, dirfd, name, shown):
        st = lstat_at(dirfd, name)
        if st is None:
            raise FsError(f"no such file or directory: {shown}")
        if stat.S_ISLNK(st.st_mode):
            raise FsError(f"symbolic link refused: {shown}")
        is_dir = stat.S_ISDIR(st.st_mode)
        if not is_dir and not stat.S_ISREG(st.st_mode):
            raise FsError(f"special file refused: {shown}")
        with journaled(ctx.journal_fd, "remove", [(dirfd, name, shown)]):
            try:
                if is_dir:
                    os.rmdir(name, dir_fd=dirfd)
                else:
                    os.unlink(name, dir_fd=dirfd)
            except OSError as exc:
                raise FsError(f"cannot remove {shown}: {exc.strerror}") from None
            os.fsync(dirfd)


def copy(src: str, dest: str) -> None:
    ctx = get_run_context()
    src_segs, dest_segs = segments(src, what="src"), segments(dest, what="dest")
    src_shown, dest_shown = _shown(src_segs), _shown(dest_segs)
    check_mutable(dest_segs, ctx.protected, dest_shown)
    with ExitStack() as stack:
        root = stack.enter_context(project_fd(ctx.project_root))
        sdir, sname = stack.enter_context(open_parent(root, src_segs))
        ddir, dname = stack.enter_context(open_parent(root, dest_segs))
        data, _ = _read_bytes(sdir, sname, src_shown, CHANGE_CAP)
        if lstat_at(ddir, dname) is not None:
            raise FsError(f"dest already exists: {dest_shown}")
        with journaled(ctx.journal_fd, "copy", [(ddir, dname, dest_shown)]):
            atomic_write(ddir, dname, data, default_mode(), dest_shown, replace=False)


def move(src: str, dest: str) -> None:
    ctx = get_run_context()
    src_segs, dest_segs = segments(src, what="src"), segments(dest, what="dest")
    src_shown, dest_shown = _shown(src_segs), _shown(dest_segs)
    check_mutable(src_segs, ctx.protected, src_shown)
    check_mutable(dest_segs, ctx.protected, dest_shown)
    with ExitStack() as stack:
        root = stack.enter_context(project_fd(ctx.project_root))
        sdir, sname = stack.enter_context(open_parent(root, src_segs))
        ddir, dname = stack.enter_context(open_parent(root, dest_segs))
        st = lstat_at(sdir, sname)
        if st is None:
            raise FsError(f"no such file: {src_shown}")
        if stat.S_ISLNK(st.st_mode):
            raise FsError(f"symbolic link refused: {src_shown}")
        if not stat.S_ISREG(st.st_mode):
            raise FsError(f"only regular files can be moved: {src_shown}")
        if lstat_at(ddir, dname) is not None:
            raise FsError(f"dest already exists: {dest_shown}")
        targets = [(sdir, sname, src_shown), (ddir, dname, dest_shown)]
        with journaled(ctx.journal_fd, "move", targets):
            try:
                # link + unlink refuses an existing dest atomically (no rename-over race).
                os.link(sname, dname, src_dir_fd=sdir, dst_dir_fd=ddir, follow_symlinks=False)
            except OSError as exc:
                raise FsError(f"cannot move {src_shown} to {dest_shown}: {exc.strerror}") from None
            os.unlink(sname, dir_fd=sdir)
            os.fsync(ddir)
            os.fsync(sdir)


def chmod(path: str, mode: int) -> None:
    if not 0 <= mode <= 0o777:
        raise FsError(f"mode must be between 0 and 0o777 (no setuid, setgid or sticky bits), not {mode:#o}")
    with _parent(path, mutate=True) as (ctx, dirfd, name, shown):
        try:
            fd = os.open(name, os.O_PATH | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=dirfd)
        except FileNotFoundError:
            raise FsError(f"no such file or directory: {shown}") from None
        try:
            st = os.fstat(fd)
            if stat.S_ISLNK(st.st_mode):
                raise FsError(f"symbolic link refused: {shown}")
            if not (stat.S_ISREG(st.st_mode) or stat.S_ISDIR(st.st_mode)):
                raise FsError(f"special file refused: {shown}")
            if stat.S_ISREG(st.st_mode) and st.st_nlink > 1:
                raise FsError(f"protected path: {shown} (file has more than one hard link)")
            with journaled(ctx.journal_fd, "chmod", [(dirfd, name, shown)]):
                # The O_PATH descriptor pins the checked inode; chmod goes through it, never the name.
                os.chmod(f"/proc/self/fd/{fd}", mode)
        finally:
            os.close(fd)
