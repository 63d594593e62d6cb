"""`xhip.dataclass_code_cache`: dataclasses made through the cache are the
stdlib's, whether their methods were compiled, reused in the process, or read
from the file; a bad or unwritable file costs only the saving."""

from __future__ import annotations

import ast
import dataclasses
import inspect
import marshal
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest

from xhip import dataclass_code_cache as cache

METHODS = (
    "__init__",
    "__repr__",
    "__eq__",
    "__lt__",
    "__le__",
    "__gt__",
    "__ge__",
    "__hash__",
    "__setattr__",
    "__delattr__",
)


def make_classes() -> dict[str, type]:
    """One of each kind of generated method, made afresh at each call."""

    @dataclasses.dataclass(frozen=True)
    class Frozen:
        x: int
        y: tuple[int, ...] = ()

    @dataclasses.dataclass(order=True, unsafe_hash=True)
    class Ordered:
        a: int
        b: str = "b"
        c: list[int] = dataclasses.field(default_factory=lambda: [1, 2], compare=False)
        d: int = dataclasses.field(default=4, repr=False)
        e: int = dataclasses.field(init=False, default=5)
        k: ClassVar[int] = 0

    @dataclasses.dataclass(kw_only=True, slots=True)
    class Slotted:
        p: int
        q: dict[str, int] = dataclasses.field(default_factory=dict)

    @dataclasses.dataclass
    class PostInit:
        n: int
        scale: dataclasses.InitVar[int] = 2
        doubled: int = dataclasses.field(init=False)

        def __post_init__(self, scale: int) -> None:
            self.doubled = self.n * scale

    @dataclasses.dataclass(eq=False)
    class Undocumented:
        v: float = 1.5

    return {c.__name__: c for c in (Frozen, Ordered, Slotted, PostInit, Undocumented)}


def behaviour(classes: dict[str, type]) -> list[Any]:
    """What the generated methods do, as comparable values."""
    frozen, ordered = classes["Frozen"], classes["Ordered"]
    slotted, post_init = classes["Slotted"], classes["PostInit"]
    f = frozen(1, (2,))
    out: list[Any] = [repr(f), f == frozen(1, (2,)), f == frozen(2), hash(f)]
    with pytest.raises(dataclasses.FrozenInstanceError):
        f.x = 3
    with pytest.raises(dataclasses.FrozenInstanceError):
        del f.x
    o1, o2 = ordered(1), ordered(1, "c", [9])
    out += [repr(o1), o1 < o2, o1 <= o2, o1 > o2, o1 >= o2, o1 == ordered(1, c=[7])]
    out += [hash(o1) == hash(ordered(1)), o1.c is not ordered(1).c, o1.e]
    s = slotted(p=1)
    out += [repr(s), s.q, s.q is not slotted(p=1).q, hasattr(s, "__dict__")]
    with pytest.raises(TypeError):
        slotted(1)  # pyright: ignore[reportCallIssue]
    out += [repr(post_init(3)), post_init(3, 5).doubled]
    out += [repr(classes["Undocumented"]()), classes["Undocumented"].__doc__]
    return out


def methods(cls: type) -> dict[str, Any]:
    """The generated functions (`__repr__` unwrapped from its recursion guard)."""
    return {
        name: inspect.unwrap(vars(cls)[name])
        for name in METHODS
        if callable(vars(cls).get(name))
    }


@pytest.fixture
def fresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The cache as a new process finds it, its file in `tmp_path`, not
    installed (whatever this test process did before); yields the file."""
    path = tmp_path / "methods.marshal"
    monkeypatch.setattr(cache, "cache_path", lambda: str(path))
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    monkeypatch.delattr(dataclasses, "exec", raising=False)
    new_process(monkeypatch)
    yield path


def new_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cache, "_texts", None)
    monkeypatch.setattr(cache, "_used", set())
    monkeypatch.setattr(cache, "_compiled", 0)
    monkeypatch.setattr(cache, "_saved", False)


def stdlib_classes() -> dict[str, type]:
    exec_ = dataclasses.__dict__.pop("exec", None)
    try:
        return make_classes()
    finally:
        if exec_ is not None:
            dataclasses.exec = exec_  # pyright: ignore[reportAttributeAccessIssue]


def assert_same_as_stdlib(classes: dict[str, type]) -> None:
    reference = stdlib_classes()
    assert behaviour(classes) == behaviour(reference)
    for name, cls in classes.items():
        ours, theirs = methods(cls), methods(reference[name])
        assert ours.keys() == theirs.keys()
        for method, function in ours.items():
            other = theirs[method]
            assert function.__code__ == other.__code__, (name, method)
            assert function.__code__.co_flags == other.__code__.co_flags
            assert function.__globals__ is other.__globals__
            assert function.__annotations__ == other.__annotations__
            assert function.__defaults__ == other.__defaults__
            assert function.__kwdefaults__ == other.__kwdefaults__
            assert function.__qualname__ == other.__qualname__
        assert inspect.signature(cls) == inspect.signature(reference[name])


def test_methods_are_the_stdlibs(fresh: Path) -> None:
    assert cache.install()
    classes = make_classes()
    assert cache._compiled > 0  # pyright: ignore[reportPrivateUsage]
    assert_same_as_stdlib(classes)


def test_repeated_texts_get_code_of_their_own(fresh: Path) -> None:
    """The second class is made from the first one's marshalled code; the
    code objects are equal but not shared."""
    assert cache.install()
    first = make_classes()
    compiled = cache._compiled  # pyright: ignore[reportPrivateUsage]
    second = make_classes()
    assert cache._compiled == compiled  # pyright: ignore[reportPrivateUsage]
    for name in first:
        for method, function in methods(first[name]).items():
            again = methods(second[name])[method]
            assert function.__code__ == again.__code__
            assert function.__code__ is not again.__code__
    assert_same_as_stdlib(second)


def test_a_later_process_reads_the_file(
    fresh: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert cache.install()
    make_classes()
    assert cache.save() and fresh.exists()
    assert not cache.save()  # once per process
    new_process(monkeypatch)
    classes = make_classes()
    assert cache._compiled == 0  # pyright: ignore[reportPrivateUsage]
    assert_same_as_stdlib(classes)
    assert not cache.save()  # nothing new: the file is not rewritten


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"garbage",
        b"\x00" * 64,
        "header",  # the right header, a truncated table
        "foreign",  # another interpreter's bytecode magic
        "not a table",  # the right header, a marshalled list
        "bad entry",  # a text whose code is damaged
    ],
)
def test_a_bad_file_is_ignored_and_rewritten(
    fresh: Path, monkeypatch: pytest.MonkeyPatch, content: bytes | str
) -> None:
    assert cache.install()
    make_classes()
    assert cache.save()
    good = fresh.read_bytes()
    header = cache._header()  # pyright: ignore[reportPrivateUsage]
    table = marshal.loads(good[len(header) :])
    damaged = {text: data[: len(data) // 2] for text, data in table.items()}
    bad = {
        "header": good[: len(good) // 2],
        "foreign": b"\x00\x00\r\n" + good[4:],
        "not a table": header + marshal.dumps(list(table)),
        "bad entry": header + marshal.dumps(damaged),
    }
    fresh.write_bytes(bad[content] if isinstance(content, str) else content)
    new_process(monkeypatch)
    classes = make_classes()
    assert cache._compiled > 0  # pyright: ignore[reportPrivateUsage]
    assert_same_as_stdlib(classes)
    assert cache.save()
    rewritten = marshal.loads(fresh.read_bytes()[len(header) :])
    assert rewritten.keys() == table.keys()
    assert all(marshal.loads(rewritten[t]) == marshal.loads(table[t]) for t in table)


def test_a_full_file_keeps_this_process_texts(
    fresh: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past `_MAX_ENTRIES` the file is rewritten with the texts this process
    ran only, so it cannot grow without end."""
    header = cache._header()  # pyright: ignore[reportPrivateUsage]
    old = {
        f"x = {i}": marshal.dumps(compile(f"x = {i}", "<string>", "exec"))
        for i in range(3)
    }
    fresh.write_bytes(header + marshal.dumps(old))
    assert cache.install()
    make_classes()
    used = set(cache._used)  # pyright: ignore[reportPrivateUsage]
    monkeypatch.setattr(cache, "_MAX_ENTRIES", len(used) + 2)
    assert cache.save()
    assert marshal.loads(fresh.read_bytes()[len(header) :]).keys() == used


def test_an_unwritable_place_is_left_alone(
    fresh: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A directory that cannot be made (its parent is a file: root may write
    anywhere else), and `-B`: no file, no error."""
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setattr(cache, "cache_path", lambda: str(blocker / "d" / "m.marshal"))
    assert cache.install()
    assert_same_as_stdlib(make_classes())
    assert not cache.save()
    new_process(monkeypatch)
    monkeypatch.setattr(cache, "cache_path", lambda: str(fresh))
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    make_classes()
    assert not cache.save() and not fresh.exists()
    assert list(tmp_path.iterdir()) == [blocker]


def test_an_unknown_python_keeps_the_stdlib(
    fresh: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "version_info", (3, 99, 0, "final", 0))
    assert not cache.install()
    assert "exec" not in vars(dataclasses)
    make_classes()
    assert cache._texts is None  # pyright: ignore[reportPrivateUsage]
    assert not cache.save() and not fresh.exists()


def test_dataclasses_calls_exec_once_without_future_features() -> None:
    """What `SUPPORTED` rests on, for the running Python: `dataclasses` calls
    `exec` in one place, and no `__future__` import of its own changes how
    `exec` compiles (the cache compiles with none)."""
    tree = ast.parse(inspect.getsource(dataclasses))
    calls = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "exec"
    ]
    assert len(calls) == 1
    assert not [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "__future__"
    ]


def test_the_file_goes_where_bytecode_goes(monkeypatch: pytest.MonkeyPatch) -> None:
    path = cache.cache_path()
    assert path is not None
    tag = sys.implementation.cache_tag
    assert Path(path).parent == Path(cache.__file__).parent / "__pycache__"
    assert Path(path).name.startswith(f"dataclass-methods.{tag}")
    monkeypatch.setattr(sys, "pycache_prefix", "/elsewhere")
    moved = cache.cache_path()
    assert moved is not None and moved.startswith("/elsewhere/")
    monkeypatch.setattr(sys.implementation, "cache_tag", None)
    assert cache.cache_path() is None


def test_globals_not_given_are_the_callers(fresh: Path) -> None:
    """`exec(text)` in a function of `dataclasses` runs in its globals and
    locals, as the builtin's would."""
    assert cache.install()
    exec_: Callable[..., None] = dataclasses.exec  # pyright: ignore[reportAttributeAccessIssue]
    namespace: dict[str, Any] = {}
    exec_("def f(): return __name__", namespace)
    assert namespace["f"]() == "builtins"

    def caller() -> dict[str, Any]:
        local = 1  # noqa: F841
        result: dict[str, Any] = {}
        exec_("result['local'] = local; result['name'] = __name__")
        return result

    assert caller() == {"local": 1, "name": __name__}
