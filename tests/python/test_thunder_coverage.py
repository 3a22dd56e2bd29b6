"""Coverage of Lightning Thunder's torch language: every @torchsymbol of thunder/torch/__init__.py
(tests/data/thunder_torchsymbols.tsv, its names and the torch callables each names) against the
ids thundercc's torch language answers to (`thundercc ops --ids`). A symbol is covered when one of
its callables (or torch.NAME, torch.nn.functional.NAME, torch.Tensor.NAME) is a thundercc id.
The rest are listed below with the reason; the test fails when that list is no longer true, in
either direction, so the count printed is the count."""
from ops_table import thunder_candidates, thunder_symbols

# What the front end does itself: no symbol in the trace, nothing for the compiler to cover.
BY_THE_FRONT_END = {
    "dim": "metadata, read at capture", "numel": "metadata, read at capture",
    "is_floating_point": "metadata, read at capture", "is_complex": "metadata, read at capture",
    "is_cuda": "metadata, read at capture", "is_cpu": "metadata, read at capture", "is_nested": "metadata, read at capture",
    "item": "specialized and guarded (prims.check_tensor_value)",
    "autocast_enter": "autocast's casts are recorded as Tensor.to", "autocast_exit": "autocast's casts are recorded as Tensor.to",
    "_set_grad_enabled_with_warning": "no_grad regions are recorded as Tensor.detach of their inputs",
    "checkpoint": "the ops it runs are recorded; what the backward recomputes is rematerialization's choice",
    "autograd_function_apply": "the forward's ops are recorded; the gradient is thundercc's rules', not the Function's backward",
}
# Not covered, and why.
NOT_YET = {
    "all_gather": "distributed (issue 26)", "all_gather_": "distributed (issue 26)", "all_reduce": "distributed (issue 26)",
    "all_reduce_": "distributed (issue 26)", "broadcast": "distributed (issue 26)", "reduce_scatter": "distributed (issue 26)",
    "reduce_scatter_": "distributed (issue 26)", "wait": "distributed (issue 26)",
}
# Not in PyTorch 1.13 (Debian's), or Thunder's own internals no program calls.
NOT_CALLABLE_HERE = {
    "rms_norm": "F.rms_norm is PyTorch 2.4's", "scaled_mm": "PyTorch 2.x's", "_grouped_mm": "PyTorch 2.8's",
    "sym_max": "symbolic shapes, PyTorch 2.x's", "sym_min": "symbolic shapes, PyTorch 2.x's",
    "uniform_philox": "Thunder's CUDA philox random op", "exponential": "Thunder's functional form of Tensor.exponential_ (covered)",
    "adaptive_avg_pool2d_backward": "an ATen backward Thunder's rules call; thundercc has its own rule",
    "embedding_backward": "an ATen backward Thunder's rules call; thundercc has its own rule",
    "log_softmax_backward": "an ATen backward Thunder's rules call; thundercc has its own rule",
    "nll_loss_backward": "an ATen backward Thunder's rules call; thundercc has its own rule",
}


def test_thunder_torch_language_coverage(thundercc, capsys):
    ours = set(thundercc("ops", "--ids").stdout.split())
    symbols = thunder_symbols()
    uncovered = {name for name, ids in symbols if not ours & thunder_candidates(name, ids)}
    explained = {**BY_THE_FRONT_END, **NOT_YET, **NOT_CALLABLE_HERE}
    covered = len(symbols) - len(uncovered)
    with capsys.disabled():
        print(f"\nThunder's torch language: {len(symbols)} symbols; {covered} in thundercc's torch language, "
              f"{len(BY_THE_FRONT_END)} handled by the front end, {len(NOT_CALLABLE_HERE)} not callable from PyTorch 1.13 "
              f"or Thunder-internal, {len(NOT_YET)} not yet ({', '.join(sorted(NOT_YET))})")
    assert uncovered == set(explained), (f"newly covered: {sorted(set(explained) - uncovered)}; "
                                         f"uncovered without a reason: {sorted(uncovered - set(explained))}")


def test_tensor_cuda_is_a_device_put(tmp_path, thundercc):
    """Tensor.cuda cannot be captured on a machine without CUDA; a trace written elsewhere validates."""
    import json
    trace = {"format": "thundercc.trace", "version": 1, "name": "f",
             "inputs": [{"name": "x", "tensor": {"shape": [2], "dtype": "float32", "device": "cpu", "requires_grad": False}}],
             "bound_symbols": [{"symbol": "torch.Tensor.cuda", "args": [{"ref": "x"}, 1], "kwargs": {},
                                "output": {"tensor": {"name": "y", "shape": [2], "dtype": "float32", "device": "cuda:1",
                                                      "requires_grad": False}}}],
             "output": {"ref": "y"}}
    (tmp_path / "f.json").write_text(json.dumps(trace))
    thundercc("compile", tmp_path / "f.json", "-o", tmp_path, "--executors", "torch_prims")
    assert 'prims.device_put(x, devices.Device("cuda:1"))' in (tmp_path / "f.trace.py").read_text()
