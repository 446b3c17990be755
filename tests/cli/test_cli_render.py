"""`klaverjas render --out DIR` on a folder it cannot write: a message and status 2, before any drawing."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main as cli_main
from bot.cli.main import main


def never_draw(out_dir: str) -> list[str]:
    raise AssertionError("nothing is drawn for a folder that cannot be written")


@pytest.fixture(autouse=True)
def _no_drawing(monkeypatch: pytest.MonkeyPatch) -> None:
    import rendering.examples

    monkeypatch.setattr(rendering.examples, "write_examples", never_draw)


def test_out_is_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "picture.png"
    target.write_bytes(b"x")
    assert main(["render", "--out", str(target)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and f"klaverjas render: cannot write to {target}: it is a file, not a folder" in err
    assert target.read_bytes() == b"x"


def test_out_below_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "file").write_bytes(b"")
    assert main(["render", "--out", str(tmp_path / "file" / "images")]) == 2
    assert "cannot write to" in capsys.readouterr().err


def test_a_folder_that_refuses_writing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    # Tests may run as root, which any permission bits let through: the refusal is made by hand.
    def refuse(self: Path, data: bytes) -> int:
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "write_bytes", refuse)
    assert main(["render", "--out", str(tmp_path / "images")]) == 2
    assert f"cannot write to {tmp_path / 'images'}: Permission denied" in capsys.readouterr().err


def test_a_write_that_fails_half_way(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    import rendering.examples

    def disk_full(out_dir: str, *labels: object) -> list[str]:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(rendering.examples, "write_examples", disk_full)
    assert main(["render", "--out", str(tmp_path)]) == 2
    assert "No space left on device" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []  # the write test leaves nothing behind


def test_a_writable_folder_is_created_and_drawn_into(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    import rendering.examples

    monkeypatch.setattr(rendering.examples, "write_examples", lambda out_dir, *labels: [f"{out_dir}/hand.png"])
    target = tmp_path / "new" / "images"
    assert cli_main.main(["render", "--out", str(target)]) == 0
    assert target.is_dir() and capsys.readouterr().out == f"{target}/hand.png\n"
