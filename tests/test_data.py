"""course.data: where MNIST is looked for, the one-line error when it is missing, tensors and batches."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import torch

from course import data
from course.data import DataNotFoundError, batches, data_dir, load_mnist

ROOT = Path(__file__).resolve().parents[1]
MINI_CANDIDATES = [os.environ.get(data.ENV_VAR, ""), str(ROOT.parent / "shared" / "data" / "mnist-mini")]


def _has_mnist(root: str) -> bool:
    return bool(root) and all((Path(root) / "MNIST" / "raw" / name).is_file() for name in data.MNIST_FILES)


@pytest.fixture(scope="module")
def mini_root() -> Path:
    """The mnist-mini copy (8,000 train / 2,000 test): $COURSE_DATA_DIR or ../shared/data/mnist-mini."""
    for candidate in MINI_CANDIDATES:
        if _has_mnist(candidate):
            return Path(candidate)
    pytest.skip("mnist-mini not found: set COURSE_DATA_DIR=../shared/data/mnist-mini")


@pytest.fixture(scope="module")
def mini_train(mini_root: Path) -> tuple[torch.Tensor, torch.Tensor]:
    x, y = load_mnist(True, root=mini_root, download=False)
    if x.shape[0] != 8000:
        pytest.skip(f"{mini_root} is not mnist-mini ({x.shape[0]} training images)")
    return x, y


# ---------------------------------------------------------------------------------------------------
# data_dir


def test_data_dir_argument_wins_over_the_environment_variable(monkeypatch, tmp_path):
    monkeypatch.setenv(data.ENV_VAR, str(tmp_path / "from-env"))
    assert data_dir(tmp_path / "from-arg") == tmp_path / "from-arg"
    assert data_dir(str(tmp_path / "from-arg")) == tmp_path / "from-arg"


def test_data_dir_uses_the_environment_variable_without_an_argument(monkeypatch, tmp_path):
    monkeypatch.setenv(data.ENV_VAR, str(tmp_path / "from-env"))
    assert data_dir() == tmp_path / "from-env"
    assert data_dir(None) == tmp_path / "from-env"


def test_data_dir_defaults_to_the_user_cache(monkeypatch, tmp_path):
    monkeypatch.delenv(data.ENV_VAR, raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert data_dir() == tmp_path / ".cache" / "pytorch-course" / "data"


def test_data_dir_ignores_an_empty_environment_variable(monkeypatch, tmp_path):
    monkeypatch.setenv(data.ENV_VAR, "")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert data_dir() == tmp_path / "cache" / "pytorch-course" / "data"


def test_data_dir_expands_the_user_and_makes_relative_paths_absolute(monkeypatch, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path))
    assert data_dir("~/mnist") == tmp_path / "mnist"
    monkeypatch.chdir(tmp_path)
    assert data_dir("relative/dir") == tmp_path / "relative" / "dir"


# ---------------------------------------------------------------------------------------------------
# missing data


def test_missing_data_is_one_error_that_says_where_to_put_the_files(tmp_path):
    with pytest.raises(DataNotFoundError) as info:
        load_mnist(True, root=tmp_path, download=False)
    err = info.value
    message = str(err)
    assert isinstance(err, RuntimeError)
    assert "\n" not in message
    assert str(tmp_path / "MNIST" / "raw") in message
    for name in data.MNIST_FILES:
        assert name in message
    assert data.ENV_VAR in message
    assert err.__cause__ is None and err.__suppress_context__  # no chained torchvision traceback


def test_missing_data_error_uses_the_environment_variable_directory(monkeypatch, tmp_path):
    monkeypatch.setenv(data.ENV_VAR, str(tmp_path / "nowhere"))
    with pytest.raises(DataNotFoundError, match="nowhere"):
        load_mnist(False, download=False)


def test_missing_data_error_lists_only_the_missing_files(tmp_path):
    raw = tmp_path / "MNIST" / "raw"
    raw.mkdir(parents=True)
    (raw / "train-images-idx3-ubyte").write_bytes(b"")
    (raw / "train-labels-idx1-ubyte").write_bytes(b"")
    with pytest.raises(DataNotFoundError) as info:
        load_mnist(True, root=tmp_path, download=False)
    message = str(info.value)
    assert "t10k-images-idx3-ubyte" in message and "t10k-labels-idx1-ubyte" in message
    assert "files train-images" not in message


def test_failed_download_is_the_same_one_line_error_and_prints_nothing(monkeypatch, tmp_path, capsys):
    from torchvision.datasets import MNIST

    monkeypatch.setattr(MNIST, "mirrors", ["http://127.0.0.1:9/"])  # nothing listens there: fails at once
    with pytest.raises(DataNotFoundError) as info:
        load_mnist(True, root=tmp_path, download=True)
    message = str(info.value)
    assert "\n" not in message
    assert "download failed" in message and data.ENV_VAR in message
    assert str(tmp_path / "MNIST" / "raw") in message
    assert not (tmp_path / "MNIST").exists()  # no empty MNIST/raw/ left behind
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == ""


# ---------------------------------------------------------------------------------------------------
# mnist-mini tensors


def test_mini_train_split_has_the_documented_shapes_and_dtypes(mini_train):
    x, y = mini_train
    assert x.shape == (8000, 1, 28, 28) and x.dtype == torch.float32 and x.device.type == "cpu"
    assert y.shape == (8000,) and y.dtype == torch.int64
    assert x.is_contiguous() and not x.requires_grad
    assert int(y.min()) == 0 and int(y.max()) == 9


def test_mini_test_split_has_2000_images(mini_root):
    x, y = load_mnist(False, root=mini_root, download=False)
    assert x.shape == (2000, 1, 28, 28) and y.shape == (2000,)
    assert torch.bincount(y, minlength=10).tolist() == [207, 230, 198, 207, 194, 169, 202, 215, 187, 191]


def test_mini_class_counts_match_the_data_readme(mini_train):
    _, y = mini_train
    assert torch.bincount(y, minlength=10).tolist() == [773, 905, 834, 803, 788, 723, 756, 813, 787, 818]


def test_images_are_normalised_with_the_mnist_mean_and_std(mini_root, mini_train):
    from torchvision.datasets import MNIST

    x, y = mini_train
    raw = MNIST(str(mini_root), train=True, download=False)
    assert torch.allclose(x[:, 0] * data.MNIST_STD + data.MNIST_MEAN, raw.data.float() / 255, atol=1e-6)
    assert torch.equal(y, raw.targets)
    assert abs(x.mean().item()) < 0.02 and abs(x.std().item() - 1) < 0.02


def test_parsed_idx_files_equal_torchvisions_mnist_on_both_splits(mini_root):
    from torchvision.datasets import MNIST

    for train in (True, False):
        pixels, labels = data.mnist_pixels(train, root=mini_root)
        raw = MNIST(str(mini_root), train=train, download=False)
        assert pixels.dtype == raw.data.dtype and torch.equal(pixels, raw.data)
        assert labels.dtype == raw.targets.dtype and torch.equal(labels, raw.targets)


@pytest.mark.parametrize(
    ("damage", "reason"),
    [
        (lambda b: b[: len(b) // 2], "truncated"),
        (lambda b: b + b"\0", "padded"),
        (lambda b: b"\x1f\x8b" + b[2:], "magic number"),  # a gzip header where the IDX magic belongs
        (lambda b: b[:6], "header"),
    ],
    ids=["truncated", "padded", "gzip", "headless"],
)
def test_a_damaged_idx_file_is_one_line_that_names_it(mini_root, tmp_path, damage, reason):
    raw = tmp_path / "MNIST" / "raw"
    raw.mkdir(parents=True)
    for name in data.MNIST_FILES:
        (raw / name).symlink_to(mini_root / "MNIST" / "raw" / name)
    bad = raw / "train-labels-idx1-ubyte"  # the small file: 8 KB
    content = bad.read_bytes()
    bad.unlink()
    bad.write_bytes(damage(content))
    with pytest.raises(DataNotFoundError, match=reason) as info:
        load_mnist(True, root=tmp_path, download=False)
    message = str(info.value)
    assert "\n" not in message and str(bad) in message and data.ENV_VAR in message
    assert info.value.__cause__ is None and info.value.__context__ is None  # no traceback chained


def test_environment_variable_is_used_to_load(monkeypatch, mini_root):
    monkeypatch.setenv(data.ENV_VAR, str(mini_root))
    x, y = load_mnist(False, download=False)
    assert x.shape == (2000, 1, 28, 28)


def test_loading_present_data_prints_nothing(mini_root, capsys):
    load_mnist(False, root=mini_root, download=True)  # files present: no network, no output
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == ""


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")
def test_tensors_land_on_the_requested_device(mini_root):
    x, y = load_mnist(False, root=mini_root, device="cuda", download=False)
    assert x.device.type == "cuda" and y.device.type == "cuda"


# ---------------------------------------------------------------------------------------------------
# batches


def _toy(n: int = 10) -> tuple[torch.Tensor, torch.Tensor]:
    y = torch.arange(n)
    return y.float().unsqueeze(1).repeat(1, 3), y


@pytest.mark.parametrize("shuffle", [False, True])
def test_batches_cover_every_sample_exactly_once(shuffle):
    x, y = _toy(10)
    parts = list(batches(x, y, 3, shuffle=shuffle, generator=torch.Generator().manual_seed(0)))
    assert [len(yb) for _, yb in parts] == [3, 3, 3, 1]
    seen = torch.cat([yb for _, yb in parts])
    assert sorted(seen.tolist()) == list(range(10))
    for xb, yb in parts:  # rows of x and y stay paired
        assert torch.equal(xb[:, 0].long(), yb) and xb.shape[1:] == (3,)


def test_batches_without_shuffle_are_ordered_views():
    x, y = _toy(7)
    parts = list(batches(x, y, 4))
    assert [yb.tolist() for _, yb in parts] == [[0, 1, 2, 3], [4, 5, 6]]
    assert parts[1][0].untyped_storage().data_ptr() == x.untyped_storage().data_ptr()


def test_batches_are_deterministic_with_a_seeded_generator():
    x, y = _toy(50)

    def order(seed: int) -> list[int]:
        return torch.cat(
            [yb for _, yb in batches(x, y, 8, shuffle=True, generator=torch.Generator().manual_seed(seed))]
        ).tolist()

    assert order(3) == order(3)
    assert order(3) != order(4)
    assert order(3) != list(range(50))


def test_batches_larger_than_the_data_give_one_batch():
    x, y = _toy(5)
    parts = list(batches(x, y, 128, shuffle=True))
    assert len(parts) == 1 and sorted(parts[0][1].tolist()) == list(range(5))


def test_batches_reject_mismatched_lengths_and_empty_batches():
    x, y = _toy(5)
    with pytest.raises(ValueError, match="rows"):
        list(batches(x, y[:4], 2))
    with pytest.raises(ValueError, match="batch_size"):
        list(batches(x, y, 0))


def test_batches_of_mini_mnist_cover_the_training_set(mini_train):
    x, y = mini_train
    sizes = [len(yb) for _, yb in batches(x, y, 128, shuffle=True, generator=torch.Generator().manual_seed(0))]
    assert len(sizes) == 63 and sum(sizes) == 8000 and sizes[-1] == 8000 - 62 * 128


def test_the_grading_sandboxs_empty_test_split_is_one_clear_error_and_the_training_split_still_loads(
    mini_root, tmp_path
):
    raw = tmp_path / "MNIST" / "raw"  # what the learner's sandbox holds: training files, empty t10k-* stand-ins
    raw.mkdir(parents=True)
    for name in data.MNIST_FILES:
        target = raw / name
        target.write_bytes(b"") if name.startswith("t10k-") else target.symlink_to(mini_root / "MNIST" / "raw" / name)
    with pytest.raises(DataNotFoundError, match="only the grader reads it") as info:
        load_mnist(False, root=tmp_path, download=False)
    assert "\n" not in str(info.value)
    x, _ = load_mnist(True, root=tmp_path, download=False)
    assert x.shape[0] == 8000
