"""Which project config files the user has trusted, by path and content hash.

A cloned repository's `.hazina/config.toml` could name a server that receives the user's API key, or a test
command that runs before the model does anything. Settings like those are taken from a project file only after
`glmagent trust` recorded its resolved path and SHA-256 here, in the user's config folder (outside any
project); editing the file makes it untrusted again. Anchors: VS Code workspace trust, direnv `allow`.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import json
import os
import tempfile
from pathlib import Path

from pydantic import BaseModel

from glmagent.errors import ConfigError
from glmagent.userdirs import config_dir

TRUST_FILE = "trusted-projects.json"


class TrustEntry(BaseModel):
    """One trusted config file."""

    path: str
    sha256: str
    trusted_at: str


def file_digest(path: Path) -> str:
    """SHA-256 of the file's bytes."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


class TrustStore:
    """The user's list of trusted project config files."""

    def __init__(self, location: Path | None = None) -> None:
        self.location = location or config_dir() / TRUST_FILE

    def entries(self) -> list[TrustEntry]:
        """Every recorded entry (a missing or unreadable store is empty: nothing is trusted)."""
        try:
            data = json.loads(self.location.read_text(encoding="utf-8"))
            return [TrustEntry.model_validate(item) for item in data.get("trusted", [])]
        except (OSError, ValueError, AttributeError):
            return []

    def is_trusted(self, config_file: Path) -> bool:
        """True when this exact file content at this path was trusted."""
        try:
            path, digest = str(config_file.resolve()), file_digest(config_file)
        except OSError:
            return False
        return any(entry.path == path and entry.sha256 == digest for entry in self.entries())

    def trust(self, config_file: Path) -> TrustEntry:
        """Record the file's current content as trusted (replacing an older entry for the same path)."""
        if not config_file.is_file():
            raise ConfigError(f"no project config to trust: {config_file} does not exist")
        entry = TrustEntry(
            path=str(config_file.resolve()),
            sha256=file_digest(config_file),
            trusted_at=dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        )
        self._save([e for e in self.entries() if e.path != entry.path] + [entry])
        return entry

    def revoke(self, config_file: Path) -> bool:
        """Forget the file; True if it was listed."""
        path = str(config_file.resolve())
        kept = [e for e in self.entries() if e.path != path]
        if len(kept) == len(self.entries()):
            return False
        self._save(kept)
        return True

    def _save(self, entries: list[TrustEntry]) -> None:
        self.location.parent.mkdir(parents=True, exist_ok=True)
        document = json.dumps({"trusted": [e.model_dump() for e in entries]}, indent=2) + "\n"
        fd, tmp = tempfile.mkstemp(dir=self.location.parent, prefix=".trust.", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(document)
            os.replace(tmp, self.location)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
