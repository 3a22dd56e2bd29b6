"""PyTorch eager's working memory for a capture factory, counted by thundercc's caching allocator
loaded into this process (the same LibTorch): the peak of live CPU tensor bytes during one call,
beyond what was live when it started (inputs, parameters, the previous call's outputs). This is
what `thundercc run --profile` prints as "working peak" (there, the plan's arena included).

    python3 benchmarks/peak_memory.py LIBTHUNDERCC_RUNTIME FILE.py:make_fn
prints the peak in bytes.
"""
import ctypes
import importlib.util
import sys
from pathlib import Path

import torch


def main():
    runtime = ctypes.CDLL(sys.argv[1])
    runtime.thundercc_allocator_live_bytes.restype = ctypes.c_size_t
    runtime.thundercc_allocator_peak_bytes.restype = ctypes.c_size_t
    runtime.thundercc_install_caching_allocator()
    path, factory = sys.argv[2].split(":")
    sys.path.insert(0, str(Path(path).resolve().parent))
    spec = importlib.util.spec_from_file_location("program", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    fn, args = getattr(module, factory)()
    torch.set_num_threads(1)
    with torch.no_grad():
        out = fn(*args)  # warm-up, and the previous output a steady-state call overlaps with
        before = runtime.thundercc_allocator_live_bytes()
        runtime.thundercc_reset_allocator_peak()
        out = fn(*args)
        print(runtime.thundercc_allocator_peak_bytes() - before)
    del out


if __name__ == "__main__":
    main()
