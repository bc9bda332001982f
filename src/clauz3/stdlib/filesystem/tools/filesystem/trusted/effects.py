"""Filesystem effects: real reads and changes of files inside the project folder (05 §11.1).

Paths are relative to the project root. Symbolic links anywhere in a path are refused; changes
under .clauz3/, .git or trusted library folders are refused; every content change is atomic and
journaled so that it can be undone.
"""

from tools.filesystem.trusted.events import Chmod, Create, Delete, List, Read, Write, WriteText
from tools.filesystem.trusted.grammar import is_project_path

import clauz3
from clauz3.events import performs
from clauz3.stdlib import fsops


@clauz3.trusted
@clauz3.requires(lambda path: is_project_path(path), message="path must be a relative path inside the project")
@clauz3.ensures(lambda result: len(result) <= 8388608)
@performs(lambda path: [Read(path)])
@clauz3.reads_data("the file {path}")
def read_file(path: str) -> str:
    """Return the text of the file at path (UTF-8, at most 8 MiB)."""
    return fsops.read_file(path)


@clauz3.trusted
@clauz3.requires(lambda path: is_project_path(path), message="path must be a relative path inside the project")
@performs(lambda path: [Read(path)])
@clauz3.reads_data("the file {path}")
def read_lines(path: str) -> list[str]:
    """Return the lines of the file at path, without line endings; a final newline adds no empty line."""
    return fsops.read_lines(path)


@clauz3.trusted
@clauz3.requires(lambda path, line_number: is_project_path(path),
                 message="path must be a relative path inside the project")
@clauz3.requires(lambda path, line_number: line_number >= 1, message="line_number must be at least 1")
@performs(lambda path, line_number: [Read(path)])
@clauz3.reads_data("the file {path}")
def read_line(path: str, line_number: int) -> str:
    """Return line line_number (1-based) of the file at path; a line past the end is an error."""
    return fsops.read_line(path, line_number)


@clauz3.trusted
@clauz3.requires(lambda pattern, path: is_project_path(path), message="path must be a relative path inside the project")
@clauz3.requires(lambda pattern, path: len(pattern) > 0, message="pattern must not be empty")
@clauz3.ensures(lambda result: len(result) <= 10000)
@performs(lambda pattern, path: [Read(path)])
@clauz3.reads_data("the file {path}")
def grep(pattern: str, path: str) -> list[str]:
    """Return the lines of the file at path that contain pattern (literal text), at most 10,000."""
    return fsops.grep(pattern, path)


@clauz3.trusted
@clauz3.requires(lambda path: is_project_path(path), message="path must be a relative path inside the project")
@clauz3.ensures(lambda result: len(result) <= 10000)
@performs(lambda path: [List(path)])
def list_dir(path: str) -> list[str]:
    """Return the sorted names in the directory at path ("." is the project root); directories end in "/"."""
    return fsops.list_dir(path)


@clauz3.trusted
@clauz3.requires(lambda path, name, kind, max_depth: is_project_path(path),
                 message="path must be a relative path inside the project")
@clauz3.requires(lambda path, name, kind, max_depth: len(name) > 0 and "/" not in name,
                 message="name must be a non-empty file-name pattern without \"/\"")
@clauz3.requires(lambda path, name, kind, max_depth: kind in ["any", "file", "dir"],
                 message="kind must be \"any\", \"file\" or \"dir\"")
@clauz3.requires(lambda path, name, kind, max_depth: max_depth >= 1 and max_depth <= 32,
                 message="max_depth must be between 1 and 32")
@clauz3.ensures(lambda result: len(result) <= 10000)
@performs(lambda path, name, kind, max_depth: [List(path)])
def find(path: str, name: str, kind: str, max_depth: int) -> list[str]:
    """Return the sorted project paths below path whose base name matches the fnmatch pattern name.

    kind is "any", "file" or "dir"; max_depth 1 searches only path itself; links are never followed.
    """
    return fsops.find(path, name, kind, max_depth)


@clauz3.trusted
@clauz3.requires(lambda path, content: is_project_path(path), message="path must be a relative path inside the project")
@performs(lambda path, content: [WriteText(path, content), Create(path)])
@clauz3.protected(path="path", content="text")
def write_file(path: str, content: str) -> None:
    """Create the file at path, or replace its content, with content (atomic; permission bits kept)."""
    fsops.write_file(path, content)


@clauz3.trusted
@clauz3.requires(lambda path, text: is_project_path(path), message="path must be a relative path inside the project")
@performs(lambda path, text: [WriteText(path, text)])
@clauz3.protected(path="path", text="text")
def append_file(path: str, text: str) -> None:
    """Add text at the end of the existing file at path."""
    fsops.append_file(path, text)


@clauz3.trusted
@clauz3.requires(lambda path, old, new: is_project_path(path), message="path must be a relative path inside the project")
@clauz3.requires(lambda path, old, new: len(old) > 0, message="old must not be empty")
@performs(lambda path, old, new: [Read(path), WriteText(path, new)])
def replace_text(path: str, old: str, new: str) -> None:
    """Replace the only occurrence of old in the file at path with new; zero or several occurrences change nothing."""
    fsops.replace_text(path, old, new)


@clauz3.trusted
@clauz3.requires(lambda path, start, end, text: is_project_path(path),
                 message="path must be a relative path inside the project")
@clauz3.requires(lambda path, start, end, text: start >= 1 and end >= start,
                 message="start must be at least 1 and end at least start")
@performs(lambda path, start, end, text: [Read(path), WriteText(path, text)])
def edit_lines(path: str, start: int, end: int, text: str) -> None:
    """Replace lines start..end (1-based, inclusive) of the file at path with text."""
    fsops.edit_lines(path, start, end, text)


@clauz3.trusted
@clauz3.requires(lambda path: is_project_path(path), message="path must be a relative path inside the project")
@performs(lambda path: [Create(path)])
def make_dir(path: str) -> None:
    """Create the directory at path; its parent must exist and path must not."""
    fsops.make_dir(path)


@clauz3.trusted
@clauz3.requires(lambda path: is_project_path(path), message="path must be a relative path inside the project")
@performs(lambda path: [Create(path)])
def touch(path: str) -> None:
    """Create an empty file at path if nothing is there; an existing file is left as it is."""
    fsops.touch(path)


@clauz3.trusted
@clauz3.requires(lambda path: is_project_path(path), message="path must be a relative path inside the project")
@performs(lambda path: [Delete(path)])
def remove(path: str) -> None:
    """Remove the file or empty directory at path."""
    fsops.remove(path)


@clauz3.trusted
@clauz3.requires(lambda src, dest: is_project_path(src), message="src must be a relative path inside the project")
@clauz3.requires(lambda src, dest: is_project_path(dest), message="dest must be a relative path inside the project")
@performs(lambda src, dest: [Read(src), Write(dest), Create(dest)])
@clauz3.protected(dest="path")
def copy(src: str, dest: str) -> None:
    """Copy the regular file src to dest, which must not exist."""
    fsops.copy(src, dest)


@clauz3.trusted
@clauz3.requires(lambda src, dest: is_project_path(src), message="src must be a relative path inside the project")
@clauz3.requires(lambda src, dest: is_project_path(dest), message="dest must be a relative path inside the project")
@performs(lambda src, dest: [Delete(src), Create(dest), Write(dest)])
@clauz3.protected(dest="path")
def move(src: str, dest: str) -> None:
    """Move the regular file src to dest, which must not exist."""
    fsops.move(src, dest)


@clauz3.trusted
@clauz3.requires(lambda path, mode: is_project_path(path), message="path must be a relative path inside the project")
@clauz3.requires(lambda path, mode: mode >= 0 and mode <= 511,
                 message="mode must be between 0 and 0o777 (no setuid, setgid or sticky bit)")
@performs(lambda path, mode: [Chmod(path, mode)])
def chmod(path: str, mode: int) -> None:
    """Set the permission bits of the file or directory at path to mode."""
    fsops.chmod(path, mode)
