"""Writes every sample of the OpInfo table as a trace (DIR/sNNN_op.json) and each of the grad
check's differentiable samples as a float64 training step (DIR/gNNN_op.json): the inputs of
scripts/check_clang_goldens.sh, which compiles them with two builds and compares the output."""
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests" / "python"))
from conftest import capture  # noqa: E402
from test_grad import differentiable_cases  # noqa: E402
from test_meta_vs_torch import SAMPLES  # noqa: E402


def main(out):
    out.mkdir(parents=True, exist_ok=True)
    written = 0
    for i, sample in enumerate(SAMPLES):
        fn, args, kwargs = sample.values
        op = sample.id.rsplit("-", 1)[0].replace(".", "_")
        capture(fn, *args, **kwargs).save(out / f"s{i:03d}_{op}.json")
        written += 1
    for name, fn, args, kwargs, _, _ in differentiable_cases():
        capture(fn, *args, **kwargs).save(out / f"{name.replace('.', '_')}.json")
        written += 1
    print(f"{written} traces in {out}")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
