"""The float64 reference that capture writes beside the eager results (NAME.expected64.pt with
--save-io, NAME.grads64.pt with --grad): the program run once more with its floating tensors in
float64. Eager float32 is itself wrong in places (a deep network's accumulated rounding, a group
norm's backward on a near-constant channel), so `thundercc run --expect` judges an element that
differs from eager beyond tolerance against this reference, as Thunder's assert_closer does."""
import copy

import torch

from thundercc_frontend import saveable

_WIDER = {torch.float16: torch.float64, torch.bfloat16: torch.float64, torch.float32: torch.float64,
          torch.complex64: torch.complex128}


class Float64Twin:
    """The program copied with its floating tensors widened, made before the program runs (which may
    modify its inputs). A module is deep-copied, or, holding a tensor deepcopy refuses (weight_norm's
    computed weight), called with widened copies of its parameters and buffers in their place
    (functional_call); a plain function is shared, so one that closes over float32 weights fails or
    mixes precisions, and gets no reference (see `run`). A program with nothing to widen (float64
    already, or integers only) is not copied: its run in float64 is the eager one."""

    def __init__(self, fn, args, kwargs):
        self.twin_of: dict[int, torch.Tensor] = {}  # id of an original tensor -> its widened copy
        self.fn, self.failure = fn, None
        held = [*fn.parameters(), *fn.buffers()] if isinstance(fn, torch.nn.Module) else []
        if not any(t is not None and t.dtype in _WIDER for t in [*held, *flat_outputs(args), *flat_outputs(kwargs)]):
            self.failure = "no input, parameter or buffer is of a precision below float64"
            return
        try:
            self._copy(fn, args, kwargs)
        except Exception as e:
            self.failure = f"the program cannot be copied: {type(e).__name__}: {e}"

    def _copy(self, fn, args, kwargs):
        if isinstance(fn, torch.nn.Module):
            try:
                self.fn = copy.deepcopy(fn)
            except RuntimeError:  # a non-leaf tensor among its attributes
                self._reparametrize(fn)
                self.args, self.kwargs = self._widen(args), self._widen(kwargs)
                return
            for (_, original), (_, twin) in zip(fn.named_parameters(), self.fn.named_parameters()):
                twin.data = twin.data.to(_WIDER.get(twin.dtype, twin.dtype))
                self.twin_of[id(original)] = twin
            for module in self.fn.modules():
                for name, buffer in module._buffers.items():
                    if buffer is not None:
                        module._buffers[name] = buffer.to(_WIDER.get(buffer.dtype, buffer.dtype))
            for (_, original), (_, twin) in zip(fn.named_buffers(), self.fn.named_buffers()):
                self.twin_of[id(original)] = twin
        self.args = self._widen(args)
        self.kwargs = self._widen(kwargs)

    def _reparametrize(self, module):
        """`module` called with widened copies of its parameters and buffers; the tensors its forward
        leaves among its attributes (weight_norm's weight, now float64) are put back after the call."""
        state = {}
        for name, t in [*module.named_parameters(), *module.named_buffers()]:
            state[name] = t.detach().to(_WIDER.get(t.dtype, t.dtype), copy=True).requires_grad_(t.requires_grad)
            self.twin_of[id(t)] = state[name]

        def call(*args, **kwargs):
            attributes = [(m, dict(vars(m))) for m in module.modules()]
            try:
                return torch.nn.utils.stateless.functional_call(module, state, args, kwargs)
            finally:
                for m, held in attributes:
                    for name, value in held.items():
                        if isinstance(value, torch.Tensor):
                            setattr(m, name, value)
        self.fn = call

    def _widen(self, value):
        if isinstance(value, torch.Tensor):
            if id(value) not in self.twin_of:
                twin = value.detach().to(_WIDER.get(value.dtype, value.dtype), copy=True)
                self.twin_of[id(value)] = twin.requires_grad_(value.requires_grad)
            return self.twin_of[id(value)]
        if isinstance(value, (list, tuple)):
            return type(value)(self._widen(v) for v in value)
        if isinstance(value, dict):
            return {k: self._widen(v) for k, v in value.items()}
        return value

    def run(self, captured, inference: bool, grad: bool):
        """(outputs, gradients or None) in float64, in the order NAME.expected.pt and NAME.grads.pt
        hold them, with None where no reference applies (an exact dtype); or a string saying why there
        is no reference."""
        if captured._drawn:
            return "the program draws random values"
        if self.failure:
            return self.failure
        if not any(t is not None and t.dtype in _WIDER for t in captured.output_values):
            return "no output is of a precision below float64"
        try:
            with torch.no_grad() if inference else torch.enable_grad():
                outputs = flat_outputs(self.fn(*self.args, **self.kwargs))
        except Exception as e:  # a function over float32 weights it closes over, a dtype-dependent branch
            return f"the program fails in float64: {type(e).__name__}: {e}"
        eager = captured.output_values
        if len(outputs) != len(eager) or any((a is None) != (b is None) or (a is not None and a.shape != b.shape)
                                             for a, b in zip(outputs, eager)):
            return "the program gives other outputs in float64"
        grads = None
        if grad:
            originals = [t for t in captured.input_values if t.requires_grad]
            seeded = [(t64, t) for t64, t in zip(outputs, eager) if t is not None and t.requires_grad]
            wanted = [self.twin_of[id(t)] for t in originals]
            if not all(t64.requires_grad for t64, _ in seeded):
                return "the program's float64 outputs carry no gradient"
            grads = torch.autograd.grad([t64 for t64, _ in seeded], wanted,
                                        [torch.ones_like(t64) for t64, _ in seeded], allow_unused=True)
            grads = _references(grads, originals)
        return _references(outputs, eager), grads


def _references(values, like) -> tuple:
    """The float64 values worth saving: where the eager value was of a lower precision."""
    return tuple(saveable(v) if v is not None and e is not None and e.dtype in _WIDER and
                 v.dtype in (torch.float64, torch.complex128) else None for v, e in zip(values, like))


def flat_outputs(result) -> list:
    """A result's tensors (and Nones) in the order capture flattens a program's outputs (other values
    hold no place)."""
    if isinstance(result, torch.Tensor) or result is None:
        return [result]
    if isinstance(result, (tuple, list)):
        return [t for item in result for t in flat_outputs(item)]
    if isinstance(result, dict):
        return [t for item in result.values() for t in flat_outputs(item)]
    return []
