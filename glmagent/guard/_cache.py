"""The load cache: a compiled policy kept per policy-file content and glmagent build, so loading is cheap.

Compiling the rules (about 600 regular expressions) and proving every example takes a few hundred
milliseconds, in every process that checks a command. The cache keeps the compiled form of a policy whose
examples were proven, under a key that covers everything the result depends on:

- the bytes and path of every policy file (built-in, the user's, the project's) and the role of each;
- glmagent's version and the source of the modules that build and run the policy (`glmagent/guard/*.py`,
  `glmagent/secrets.py`), so an upgrade or an edit proves the examples again;
- the Python, pydantic and tree-sitter builds that read and parse it (the installed folder of each, so
  telling them apart imports none of them: a policy loaded from here never uses pydantic).

Editing any of them changes the key, so a stale entry is never found. The cache lives in the user's
state folder (`glmagent.userdirs.state_dir()/policy-cache`), beside the trust store: never in a project,
and read-only to every command the OS sandbox runs. Each file starts with a header holding its key and
the SHA-256 of its body; a file whose header or digest does not match, or that does not unpickle into
the expected types, is ignored and rebuilt. Unpickling only resolves glmagent's own policy classes
(never a function or another module's object), so a damaged or planted file cannot run code. Regular
expressions come back uncompiled and compile on first use, which is most of the saving.

`GLMAGENT_POLICY_CACHE=0` turns the cache off; `glmagent policy cache --clear` deletes it.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import importlib.util
import io
import os
import pickle
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ._lazy import LazyPattern

_MAGIC = b"glmagent-policy-cache 1\n"
_KEEP = 8
"""Entries kept; older ones (other versions, edited files) are pruned when a new one is written."""
_PACKAGE = Path(__file__).resolve().parent
_BUILDERS = ("pydantic", "pydantic_core", "tree_sitter", "tree_sitter_bash", "tree_sitter_powershell")
"""Packages that validate and parse a policy: a reinstall of any of them builds it again."""
_fingerprint: str | None = None


def cache_dir() -> Path:
    """Where compiled policies are kept."""
    from glmagent.userdirs import state_dir

    return state_dir() / "policy-cache"


def enabled() -> bool:
    return os.environ.get("GLMAGENT_POLICY_CACHE", "").strip().lower() not in ("0", "no", "off", "false")


def code_fingerprint() -> str:
    """SHA-256 over everything besides the policy files that a compiled policy and its proof depend on."""
    global _fingerprint
    if _fingerprint is None:
        from glmagent import __version__

        digest = hashlib.sha256()
        for part in (__version__, sys.version, sys.implementation.cache_tag or ""):
            digest.update(part.encode() + b"\0")
        sources = sorted(_PACKAGE.glob("*.py"))
        if not sources:
            raise OSError(f"no policy sources in {_PACKAGE} to tell this build apart")  # no cache then
        for path in [*sources, _PACKAGE.parent / "secrets.py"]:
            digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
        for name in _BUILDERS:
            digest.update(_build_stamp(name).encode() + b"\0")
        _fingerprint = digest.hexdigest()
    return _fingerprint


def _build_stamp(module: str) -> str:
    """Size and times of an installed package's folder and `__init__.py`: both change whenever it is
    installed again (pip removes the old files and writes new ones), without reading the folder."""
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        return f"{module}:absent"
    stamps = []
    for folder in spec.submodule_search_locations:
        for path in (folder, os.path.join(folder, "__init__.py")):
            try:
                stat = os.stat(path)
            except OSError:
                stamps.append(f"{path}:absent")
                continue
            stamps.append(f"{path}:{stat.st_size}:{stat.st_mtime_ns}:{stat.st_ino}")
    return f"{module}:" + ",".join(stamps)


def cache_key(files: Iterable[tuple[str, Path, bytes]]) -> str:
    """The key of a policy built from `files` (role, path, content) by this very build of glmagent."""
    digest = hashlib.sha256(code_fingerprint().encode())
    for role, path, data in files:
        digest.update(f"\0{role}\0{path}\0".encode())
        digest.update(hashlib.sha256(data).digest())
    return digest.hexdigest()


def dumps(value: Any) -> bytes | None:
    """The compiled form as bytes, or None when it holds something that cannot be stored (then every
    process compiles and proves the policy itself, as without a cache)."""
    try:
        return pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, TypeError, AttributeError):
        return None


def store(key: str, body: bytes) -> None:
    """Write one entry atomically (a failure to write only costs the next process a full load)."""
    import tempfile

    folder = cache_dir()
    header = _MAGIC + key.encode() + b"\n" + hashlib.sha256(body).hexdigest().encode() + b"\n"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-", suffix=".pickle")
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(header + body)
            os.replace(tmp, folder / f"{key}.pickle")
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
        _prune(folder)
    except OSError:
        pass


def load(key: str) -> Any | None:
    """The entry stored under `key`, or None when there is none or it is damaged in any way."""
    try:
        data = (cache_dir() / f"{key}.pickle").read_bytes()
    except OSError:
        return None
    expected = _MAGIC + key.encode() + b"\n"
    if not data.startswith(expected):
        return None
    digest, _, body = data[len(expected) :].partition(b"\n")
    if digest != hashlib.sha256(body).hexdigest().encode():
        return None
    collecting = gc.isenabled()
    gc.disable()  # tens of thousands of new containers and no cycle: collecting costs a tenth of a check
    try:
        return _PolicyUnpickler(io.BytesIO(body)).load()
    except Exception:  # a damaged or foreign file is only a cache miss
        return None
    finally:
        if collecting:
            gc.enable()


def clear() -> int:
    """Delete every entry; the number deleted."""
    removed = 0
    for path in entries():
        with contextlib.suppress(OSError):
            path.unlink()
            removed += 1
    return removed


def entries() -> list[Path]:
    """The stored entries, newest first."""
    try:
        found = [p for p in cache_dir().glob("*.pickle") if not p.name.startswith(".")]
        return sorted(found, key=lambda p: p.stat().st_mtime_ns, reverse=True)
    except OSError:
        return []


def _prune(folder: Path) -> None:
    for stale in entries()[_KEEP:]:
        with contextlib.suppress(OSError):
            stale.unlink()


_GUARD = __name__.rsplit(".", 1)[0] + "."


class _PolicyUnpickler(pickle.Unpickler):
    """Resolves only classes defined in glmagent's policy modules, and regular expressions (lazily)."""

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) == ("re", "_compile"):
            return LazyPattern
        if module.startswith(_GUARD) and "." not in name and module in sys.modules:
            found = vars(sys.modules[module]).get(name)
            if isinstance(found, type) and found.__module__ == module:
                return found
        raise pickle.UnpicklingError(f"{module}.{name} is not a policy class")
