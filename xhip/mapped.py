"""Weights that stay in their files: mapped read-only, copied file to file.

The importer maps an ONNX model's external data (`map_file`) and gives each
large tensor a `memoryview` of the mapping, so nothing is read until something
looks at the bytes. `write_at` copies such a view to the constants file in the
kernel (`os.copy_file_range`, else `os.sendfile`): the weights never pass
through this process, whose resident set counts a mapping's pages only once
they are touched. A module of its own, below every layer, because the frontend
makes these views and the transforms and the backend consume them.
"""

from __future__ import annotations

import errno
import mmap
import os

import numpy as np

_UNSUPPORTED = {
    errno.EXDEV,
    errno.ENOSYS,
    errno.EINVAL,
    errno.EOPNOTSUPP,
    errno.ENOTSOCK,
}
"""What `copy_file_range`/`sendfile` answer where the kernel or the file systems
cannot copy a range (an old kernel, two file systems, `sendfile` to a
file on macOS); `os.copy_file_range` itself is Linux only."""


class MappedFile(mmap.mmap):
    """A read-only mapping of a whole file that remembers the file's path."""

    path: str


def map_file(path: str) -> MappedFile:
    """`path` mapped read-only; an empty file cannot be mapped (`ValueError`)."""
    with open(path, "rb") as f:
        mapped = MappedFile(f.fileno(), 0, access=mmap.ACCESS_READ)
    mapped.path = os.path.abspath(path)  # copied from later, wherever the cwd is
    return mapped


def _address(buffer: memoryview | MappedFile) -> int:
    """Where `buffer` starts in memory (numpy reads it without touching a page)."""
    return np.frombuffer(buffer, np.uint8).ctypes.data


def file_range(data: bytes | memoryview) -> tuple[str, int] | None:
    """`(path, offset)` when `data` is a contiguous view into a `MappedFile`."""
    if not isinstance(data, memoryview) or not data.nbytes or not data.c_contiguous:
        return None
    mapped = data.obj
    if not isinstance(mapped, MappedFile):
        return None
    return mapped.path, _address(data) - _address(mapped)


def write_at(fd: int, offset: int, data: bytes | memoryview) -> None:
    """Write `data` to the file `fd` at `offset`; a view of a mapped file is
    copied by the kernel, file range to file range."""
    source = file_range(data)
    if source is not None and _copy_range(*source, fd, offset, len(data)):
        return
    view = memoryview(data).cast("B")
    while view:
        written = os.pwrite(fd, view, offset)
        view, offset = view[written:], offset + written


def _copy_range(path: str, src_offset: int, fd: int, offset: int, size: int) -> bool:
    """Copy `size` bytes of `path` from `src_offset` to `fd` at `offset` in the
    kernel; False where no system call can (then `fd` is left to `pwrite`)."""
    with open(path, "rb") as src:
        for copy in _KERNEL_COPIES:
            try:
                done = 0
                while done < size:
                    n = copy(
                        src.fileno(), src_offset + done, fd, offset + done, size - done
                    )
                    if not n:
                        raise OSError(errno.EIO, f"{path} ended before {size} bytes")
                    done += n
                return True
            except OSError as e:
                if e.errno not in _UNSUPPORTED:
                    raise
    return False


def _copy_file_range(src: int, src_offset: int, fd: int, offset: int, n: int) -> int:
    if not hasattr(os, "copy_file_range"):  # Linux only
        raise OSError(errno.ENOSYS, "no copy_file_range")
    return os.copy_file_range(src, fd, n, src_offset, offset)


def _sendfile(src: int, src_offset: int, fd: int, offset: int, n: int) -> int:
    os.lseek(fd, offset, os.SEEK_SET)
    return os.sendfile(fd, src, src_offset, n)


_KERNEL_COPIES = (_copy_file_range, _sendfile)
"""In order of preference: `copy_file_range` may share the blocks (reflink);
`sendfile` also copies between two file systems."""
