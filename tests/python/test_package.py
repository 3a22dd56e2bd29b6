"""`thundercc package`: a plan and the module's weights in one file, which `thundercc run`, the
runtime's Plan::load (through the Python API's load) and torch.load read; checked as a plan and as a
tensor file are, and refused clearly where it is not one."""
import subprocess
import sys

import pytest
import torch
import torchvision

import thundercc_frontend as tcc
from conftest import capture


@pytest.fixture(scope="module")
def packaged(tmp_path_factory, thundercc):
    folder = tmp_path_factory.mktemp("package")
    torch.manual_seed(0)
    model = torchvision.models.mobilenet_v3_small(num_classes=10).eval()
    x = torch.randn(2, 3, 64, 64)
    with torch.no_grad():
        capture(model, x).save(folder / "m.json")
        expected = model(x)
    torch.save(model.state_dict(), folder / "weights.pt")
    torch.save({"x": x}, folder / "x.pt")
    torch.save([expected], folder / "expected.pt")
    thundercc("compile", folder / "m.json", "-o", folder)
    done = thundercc("package", folder / "m.plan.json", "--weights", folder / "weights.pt", "-o", folder / "m.tcc")
    assert done.stdout.startswith(f"{folder / 'm.tcc'}: ")
    return folder, x, expected


def test_run_takes_a_package_with_the_batch_alone(packaged, thundercc):
    folder, _, _ = packaged
    done = thundercc("run", folder / "m.tcc", "--inputs", folder / "x.pt", "--expect", folder / "expected.pt")
    assert "outputs match" in done.stdout


def test_python_loads_a_package_and_calls_it(packaged, thundercc):
    folder, x, expected = packaged
    model = tcc.load(folder / "m.tcc")
    assert model.input_names == ["x"]
    torch.testing.assert_close(model(x), expected, rtol=1e-4, atol=1e-4)
    torch.testing.assert_close(model(x=x), expected, rtol=1e-4, atol=1e-4)
    # A plan.json takes its weights from a state_dict instead.
    plain = tcc.load(folder / "m.plan.json", weights=torch.load(folder / "weights.pt"))
    torch.testing.assert_close(plain(x), expected, rtol=1e-4, atol=1e-4)


def test_a_package_is_what_torch_load_reads(packaged):
    folder, _, _ = packaged
    package = torch.load(folder / "m.tcc")
    assert package["format"] == "thundercc.package" and package["version"] == 1
    assert package["plan"].startswith("{") and set(package["weights"]) == set(torch.load(folder / "weights.pt"))


def test_bad_packages_are_clear_errors(packaged, thundercc, tmp_path):
    folder, _, _ = packaged

    def refused(path, *more):
        done = thundercc("run", path, "--inputs", folder / "x.pt", *more, check=False)
        assert done.returncode == 1, done.stderr
        return done.stderr

    package = torch.load(folder / "m.tcc")
    for key, value, message in [("format", "other", "not a thundercc package"), ("version", 2, "a package of version 2"),
                                ("plan", "{", "plan"), ("weights", {"x": torch.zeros(1)}, "the state_dict does not fit the plan")]:
        torch.save({**package, key: value}, tmp_path / "bad.tcc")
        assert message in refused(tmp_path / "bad.tcc")
    torch.save({"x": torch.zeros(1)}, tmp_path / "tensors.tcc")
    assert "not a thundercc package" in refused(tmp_path / "tensors.tcc")
    assert "a package holds no kernels to trust" in refused(folder / "m.tcc", "--trust-kernels")
    wrong = thundercc("package", folder / "m.plan.json", "--weights", folder / "x.pt", "-o", tmp_path / "w.tcc", check=False)
    assert wrong.returncode == 1 and "the state_dict does not fit the plan" in wrong.stderr
    assert not (tmp_path / "w.tcc").exists()
    usage = thundercc("package", folder / "m.plan.json", "-o", tmp_path / "u.tcc", check=False)
    assert usage.returncode == 2 and "--weights is required" in usage.stderr
