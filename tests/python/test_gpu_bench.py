"""The GPU benchmark's own check (scripts/gpu_bench.sh --dry-run): benchmarks/gpu_bench.py on the
CPU at small sizes, three of its programs: every correctness case passes against float64 (a wrong
comparison, a lost file or a broken capture would fail it here rather than in a GPU's few
minutes), the speed and bandwidth lines are written, and the summary file holds them all."""
import subprocess

from conftest import REPO


def test_the_gpu_benchmark_runs_on_the_cpu_at_small_sizes(tmp_path):
    result = subprocess.run(["/usr/bin/python3", REPO / "benchmarks" / "gpu_bench.py", "--device", "cpu", "--small", "--rounds", "1",
                             "--repeat", "2", "--programs", "gpt2_stack,gelu,mlp", "--out", tmp_path], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    summary = (tmp_path / "summary.txt").read_text()
    assert summary == result.stdout
    for case in ("gpt2_stack.inference.float32", "gpt2_stack.training.float32", "gpt2_stack.inference.bfloat16",
                 "gpt2_stack.training.bfloat16", "gelu.inference.float32"):
        assert f"  PASS {case}: outputs " in summary
    assert "  gpt2_stack training float32: thundercc " in summary and "eager " in summary
    assert "  gelu " in summary and "% of the copy's" in summary
    assert "  mlp step float32: " in summary and ", --cuda-graphs refused on the CPU" in summary
    assert "  epilogue: no pair on the CPU, nothing measured; outputs equal under THUNDERCC_LINEAR_EPILOGUE=fused and =separate" in summary
    assert "  nccl: skipped, 0 GPU(s) listed by nvidia-smi (2 needed)" in summary
    assert summary.endswith("gpu_bench: every correctness check passed\n")
