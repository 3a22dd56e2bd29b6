"""thundercc from Python: compile a program and call it, as thunder.jit's result is called.

    import thundercc_frontend as tcc
    fast = tcc.compile(model, x)        # captures model(x), compiles it, loads the plan
    y = fast(x)                         # runs the plan in this process
    fast.trace_path, fast.plan_path     # what was captured and compiled; fast.execution_trace()

The plan runs in this process through the runtime's Python extension (build/python/
_thundercc_runtime*.so, built when Debian's pybind11-dev is installed): tensors go in and come back
without copies. A module's parameters and buffers are read from the module at every call, so the
plan always runs with its current weights. When the program was captured with inputs or
parameters that require grad, the plan is a training step: the call's outputs take part in
autograd, and `loss.backward()` runs the plan's backward, filling `.grad` as eager would.

A compiled program is specialized to what capture saw: the shapes and dtypes of its tensors
(checked at every call, naming the input), the values of its Python numbers and its modules'
train/eval modes; a program that modifies its inputs in place refuses inputs that share memory.
"""
from __future__ import annotations

import importlib
import inspect
import subprocess
import sys
import tempfile
from pathlib import Path

import torch

from thundercc_frontend import capture, thundercc_binary


class CompileError(RuntimeError):
    """thundercc compile refused the captured program; the message is its own."""


def _runtime():
    """The runtime's Python extension: the build's (build/python, beside the thundercc binary), or
    the one installed beside this package."""
    binary = Path(thundercc_binary()).resolve()
    for folder in (binary.parent / "python", Path(__file__).resolve().parent.parent):
        if any(folder.glob("_thundercc_runtime*.so")):
            if str(folder) not in sys.path:
                sys.path.insert(0, str(folder))
            return importlib.import_module("_thundercc_runtime")
    raise CompileError(f"thundercc's Python runtime extension is not built (looked beside {binary}): install Debian's "
                       f"pybind11-dev and build again (scripts/setup.sh does both)")


def compile(fn, *args, workdir=None, executors: str | None = None, options=(), **kwargs) -> "Compiled":
    """Captures fn(*args, **kwargs), compiles it with `thundercc compile` (executors: as its
    --executors; options: more of its command-line options) into workdir (default: a new temporary
    folder) and returns a callable running the plan. Raises CaptureError for a call capture
    refuses, CompileError (the compiler's message) for a program it refuses."""
    runtime = _runtime()
    captured = capture(fn, *args, **kwargs)
    # Capture ran the program once; compiling it must not have been a call of it: what that run
    # modified in place (a training batch norm's running statistics) is put back.
    before = captured.input_values_before()
    with torch.no_grad():
        for k in captured.mutated_inputs():
            captured.input_values[k].copy_(before[k])
    folder = Path(workdir) if workdir is not None else Path(tempfile.mkdtemp(prefix="thundercc-"))
    folder.mkdir(parents=True, exist_ok=True)
    trace_path = folder / f"{captured.name}.json"
    captured.save(trace_path)
    command = [thundercc_binary(), "compile", str(trace_path), "-o", str(folder)]
    if executors:
        command += ["--executors", executors]
    done = subprocess.run(command + list(options), capture_output=True, text=True)
    if done.returncode != 0:
        raise CompileError(done.stderr.strip() or f"thundercc compile exited {done.returncode}")
    plan_path = folder / f"{captured.name}.plan.json"
    return Compiled(fn, captured, runtime.Plan.load(str(plan_path)), trace_path, plan_path)


def load(path, weights=None) -> "Loaded":
    """A plan (NAME.plan.json) or a package (thundercc package: the plan and its weights) as a
    callable: positional arguments are the plan's inputs that are not the module's weights, in
    order, keywords name them. A plan.json's weights come from `weights` (a state_dict); a
    package holds its own."""
    plan = _runtime().Plan.load(str(path))
    if weights is not None:
        plan.set_weights(list(weights.items()))
    return Loaded(plan, Path(path))


class Loaded:
    """A loaded plan or package: call it with the inputs that are not weights (inference)."""

    def __init__(self, plan, path: Path):
        self.plan = plan
        self.path = path
        self.input_names = [name for name, keys, _ in plan.inputs if not keys]

    def __call__(self, *args, **kwargs):
        if len(args) > len(self.input_names):
            raise TypeError(f"{self.path} takes {len(self.input_names)} inputs ({', '.join(self.input_names)}), not {len(args)}")
        given = dict(zip(self.input_names, args))
        given.update(kwargs)
        with torch.no_grad():
            outputs = self.plan.run(given)
        return outputs[0] if len(outputs) == 1 else tuple(outputs)


class _PlanStep(torch.autograd.Function):
    """The plan's forward as one autograd node, whose backward is the plan's backward."""

    @staticmethod
    def forward(ctx, compiled, *inputs):
        ctx.compiled = compiled
        compiled._forwards += 1
        ctx.forward_number = compiled._forwards
        return tuple(compiled.plan.forward(list(inputs)))

    @staticmethod
    def backward(ctx, *output_grads):
        compiled = ctx.compiled
        if torch.is_grad_enabled():  # backward(create_graph=True), as a gradient penalty asks
            raise RuntimeError("thundercc: the compiled program's backward is not differentiable (backward or "
                               "autograd.grad with create_graph=True, a gradient penalty): thundercc has no double backward")
        if getattr(ctx, "backward_ran", False):
            raise RuntimeError("thundercc: this call's backward already ran, and its saved tensors were freed then "
                               "(retain_graph=True keeps none of the plan's): call the program again for another backward")
        ctx.backward_ran = True
        # The plan keeps what one forward saved for its backward: the last call's.
        if ctx.forward_number != compiled._forwards:
            raise RuntimeError("thundercc: this backward belongs to a call of the compiled program that a later call "
                               "replaced (the plan keeps one call's saved tensors): run backward before calling the "
                               "program again, or compile it once per concurrent use")
        cotangents = [output_grads[i].contiguous() for i in compiled._differentiable_outputs]
        return (None, *compiled.plan.backward(cotangents))


class Compiled:
    """A compiled program: call it as the program was called."""

    def __init__(self, fn, captured, plan, trace_path: Path, plan_path: Path):
        self.fn = fn
        self.plan = plan
        self.trace_path = trace_path
        self.plan_path = plan_path
        self._module = fn if isinstance(fn, torch.nn.Module) else None
        self._signature = _signature_of(fn)
        # The captured inputs by name: each argument's tensors (and numbers, which the plan holds
        # as constants) and the module's state by its state_dict keys.
        self._numbers = {i["name"]: i["number"]["value"] for i in captured.inputs if "number" in i}
        self._argument_names = [i["name"] for i in captured.inputs if "fqn" not in i]
        self._state_keys = {i["name"]: i["fqn"][0] for i in captured.inputs if "fqn" in i}
        self._differentiable_outputs = [i for i, t in enumerate(captured.output_values)
                                        if isinstance(t, torch.Tensor) and t.requires_grad]
        self._output_structure = captured.output
        self._forwards = 0  # training calls so far: a backward must follow its own call's forward
        # The modules' train/eval modes the program was captured in (batch norm, dropout).
        self._modes = [(name, m.training) for name, m in self._module.named_modules()] if self._module is not None else []
        # The inputs that required grad at capture: the plan's backward gives gradients to those alone.
        self._requiring_grad = {t["name"] for t in _recorded_tensors(captured.inputs) if t.get("requires_grad")}
        self._modifies_inputs = bool(captured.mutated_inputs())

    def execution_trace(self) -> str:
        """The execution trace `compile` printed (NAME.trace.py), as Thunder prints one."""
        return self.plan_path.with_name(self.plan_path.name.replace(".plan.json", ".trace.py")).read_text()

    def _inputs(self, args, kwargs) -> list:
        """The plan's inputs, in its order, from a call's arguments and the module's state."""
        given = {}
        bound = self._signature.bind(*args, **kwargs).arguments.items() if self._signature else \
            [(f"t_{i}", a) for i, a in enumerate(args)]
        for name, value in bound:
            if isinstance(value, torch.Tensor):
                given[name] = value
            elif isinstance(value, (tuple, list)) and all(isinstance(x, torch.Tensor) for x in value):
                given.update((f"{name}_{i}", x) for i, x in enumerate(value))
            elif name in self._numbers and value != self._numbers[name]:
                raise ValueError(f"{name} is {value!r}, but the program was compiled for {name}={self._numbers[name]!r}: "
                                 f"compile it again for this value")
        state = self._module.state_dict(keep_vars=True) if self._module is not None else {}
        inputs = []
        for name, _, _ in self.plan.inputs:
            if name in self._state_keys:
                inputs.append(state[self._state_keys[name]])
            elif name in given:
                inputs.append(given[name])
            else:
                raise TypeError(f"the compiled program needs a tensor for {name}, which this call does not give")
        return inputs

    def _check_specialization(self, inputs) -> None:
        """What the plan was specialized to beyond its inputs' shapes and dtypes."""
        if self._module is not None:
            for (name, was_training), module in zip(self._modes, self._module.modules()):
                if module.training != was_training:
                    mode = {True: "training", False: "eval"}
                    raise ValueError(f"the module {name or '(the root)'} was compiled in {mode[was_training]} mode and is "
                                     f"now in {mode[module.training]} mode: compile the program again for this mode")
        names = [name for name, _, _ in self.plan.inputs]
        if torch.is_grad_enabled():
            for name, t in zip(names, inputs):
                if t.requires_grad and name not in self._requiring_grad:
                    raise ValueError(f"{name} requires grad, but did not when the program was compiled, so the plan computes "
                                     f"no gradient for it: compile the program again with it requiring grad")
        if self._modifies_inputs:
            spans = []  # the bytes each input may touch
            for name, t in zip(names, inputs):
                if t.numel():
                    extent = sum((size - 1) * stride for size, stride in zip(t.shape, t.stride())) + 1
                    spans.append((t.data_ptr(), t.data_ptr() + extent * t.element_size(), name))
            spans.sort()
            for (_, end, first), (start, _, second) in zip(spans, spans[1:]):
                if start < end:
                    raise ValueError(f"inputs {first} and {second} overlap in memory, and the program modifies its inputs "
                                     f"in place: eager would see each write through both, the plan does not; pass "
                                     f"separate tensors (clone one)")

    def __call__(self, *args, **kwargs):
        inputs = self._inputs(args, kwargs)
        self._check_specialization(inputs)
        training = self.plan.has_backward and torch.is_grad_enabled() and any(t.requires_grad for t in inputs)
        if training:
            outputs = _PlanStep.apply(self, *inputs)
        else:
            with torch.no_grad():
                outputs = tuple(self.plan.forward(inputs))
        return _rebuilt(self._output_structure, iter(outputs))


def _recorded_tensors(value) -> list:
    """The tensor records (name, shape, requires_grad, ...) in trace.json's inputs, through collections."""
    if isinstance(value, dict):
        if "tensor" in value and isinstance(value["tensor"], dict):
            return [{"name": value.get("name"), **value["tensor"]}]  # a top-level input's name is beside its tensor
        return [t for v in value.values() for t in _recorded_tensors(v)]
    if isinstance(value, list):
        return [t for v in value for t in _recorded_tensors(v)]
    return []


def _rebuilt(structure, outputs):
    """The program's result, as capture recorded its structure (trace.json's "output"), its tensors
    (and Nones) taken in order from the plan's flattened outputs."""
    if structure is None or (isinstance(structure, dict) and "ref" in structure):
        return next(outputs)
    if isinstance(structure, dict) and "tuple" in structure:
        return tuple(_rebuilt(s, outputs) for s in structure["tuple"])
    if isinstance(structure, dict) and "list" in structure:
        return [_rebuilt(s, outputs) for s in structure["list"]]
    if isinstance(structure, dict) and "dict" in structure:
        return {k: _rebuilt(v, outputs) for k, v in structure["dict"]}
    if isinstance(structure, dict) and "float" in structure:
        return float(structure["float"])
    if isinstance(structure, dict) and "complex" in structure:
        return complex(*structure["complex"])
    return structure


def _signature_of(fn):
    target = fn.forward if isinstance(fn, torch.nn.Module) else fn
    try:
        return inspect.signature(target)
    except ValueError:
        return None
