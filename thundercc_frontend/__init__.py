"""thundercc's Python front end: captures a PyTorch program as trace.json.

The program runs eagerly under a TorchFunctionMode. Every torch-level call (torch functions,
torch.nn.functional, Tensor methods and operators) is recorded under the symbol id thundercc
knows it by, with its arguments (Python kinds kept apart) and the metadata of what PyTorch
really produced. What cannot be captured faithfully stops the capture with the op's name and
the user's source line.

    from thundercc_frontend import capture
    captured = capture(model, x)          # runs model(x) once, eagerly
    captured.save("trace.json")

    fast = thundercc_frontend.compile(model, x)   # captured, compiled and loaded (compiled.py)
    y = fast(x)
"""
from __future__ import annotations

import ast
import ctypes
import inspect
import json
import keyword
import math
import os
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import torch
from torch.overrides import TorchFunctionMode

FORMAT = "thundercc.trace"
VERSION = 1
REPO = Path(__file__).resolve().parent.parent

DTYPE_NAMES = {
    torch.bool: "bool8", torch.uint8: "uint8", torch.int8: "int8", torch.int16: "int16", torch.int32: "int32",
    torch.int64: "int64", torch.bfloat16: "bfloat16", torch.float16: "float16", torch.float32: "float32",
    torch.float64: "float64", torch.complex32: "complex32", torch.complex64: "complex64",
    torch.complex128: "complex128",
}

# Operators and methods whose symbol is another id; reflected operators swap their operands.
DUNDERS = {
    "__add__": ("torch.add", False), "__radd__": ("torch.add", True),
    "__sub__": ("torch.sub", False), "__rsub__": ("torch.sub", True),
    "__mul__": ("torch.mul", False), "__rmul__": ("torch.mul", True),
    "__truediv__": ("torch.true_divide", False), "__rtruediv__": ("torch.true_divide", True),
    "__floordiv__": ("torch.floor_divide", False), "__rfloordiv__": ("torch.floor_divide", True),
    "__mod__": ("torch.remainder", False), "__rmod__": ("torch.remainder", True),
    "__pow__": ("torch.pow", False), "__rpow__": ("torch.pow", True),
    "__matmul__": ("torch.matmul", False), "__rmatmul__": ("torch.matmul", True),
    "__neg__": ("torch.neg", False), "__abs__": ("torch.abs", False), "__invert__": ("torch.bitwise_not", False),
    "__and__": ("torch.bitwise_and", False), "__or__": ("torch.bitwise_or", False), "__xor__": ("torch.bitwise_xor", False),
    "__eq__": ("torch.eq", False), "__ne__": ("torch.ne", False), "__lt__": ("torch.lt", False),
    "__le__": ("torch.le", False), "__gt__": ("torch.gt", False), "__ge__": ("torch.ge", False),
    "__getitem__": ("torch.Tensor.__getitem__", False),
    # In-place operators: recorded as the in-place method (see "Mutation" in Capture).
    "__iadd__": ("torch.Tensor.add_", False), "__isub__": ("torch.Tensor.sub_", False),
    "__imul__": ("torch.Tensor.mul_", False), "__itruediv__": ("torch.Tensor.div_", False),
    "__ifloordiv__": ("torch.Tensor.floor_divide_", False), "__imod__": ("torch.Tensor.remainder_", False),
    "__ipow__": ("torch.Tensor.pow_", False), "__iand__": ("torch.Tensor.bitwise_and_", False),
    "__ior__": ("torch.Tensor.bitwise_or_", False), "__ixor__": ("torch.Tensor.bitwise_xor_", False),
    "__setitem__": ("torch.Tensor.__setitem__", False),
}

# Calls on Python values only (no tensor among their arguments), evaluated at capture time: they
# leave no bound symbol, as in Thunder.
PYTHON_ONLY = {"_assert"}

# Reading metadata is fine: shapes are static in a trace.
METADATA = {"size", "dim", "numel", "is_floating_point", "is_complex", "is_contiguous", "__len__", "__get__",
            "__repr__", "__format__", "element_size", "stride", "storage_offset", "get_device", "__hash__", "is_inference"}
# Reading one element's value specializes the trace to it: recorded as a guard that `thundercc run`
# checks (prims.check_tensor_value), so another value is an error, never a wrong result.
GUARDED = {"item", "__bool__", "__int__", "__float__", "__index__"}
# Arguments whose values decide shapes: a packed sequence's lengths and batch sizes (by position).
# The trace is specialized to the values seen at capture, recorded as a list and guarded as .item() is.
SIZE_ARGUMENTS = {"torch._pack_padded_sequence": {1: "lengths"}, "torch._pad_packed_sequence": {1: "batch_sizes"},
                  "torch.nn.functional.ctc_loss": {2: "input_lengths", 3: "target_lengths"}}
RECURRENT = {"torch.lstm", "torch.gru", "torch.rnn_tanh", "torch.rnn_relu"}
# Calls that make a tensor of the values of the tensors in their data (torch.tensor([a.sum(), 1.0])):
# recorded with the tensors, whose values the compiled program reads as it runs.
READS_VALUES_OF_TENSORS = {"torch.tensor", "torch.as_tensor", "torch.Tensor.new_tensor"}
# Reading more data makes the program depend on values a trace cannot see.
DATA_DEPENDENT = {"tolist", "numpy", "__complex__", "allclose", "equal"}
# Results whose shape depends on the values of a tensor: no static trace can hold them.
DATA_DEPENDENT_SHAPE = {"nonzero", "argwhere", "unique", "unique_consecutive", "_unique", "_unique2", "masked_select",
                        "bincount"}


class CaptureError(RuntimeError):
    """A program thundercc cannot capture faithfully; the message names the op and the source line.
    `consequence`: the call only reads what an earlier refused call made (capture --check does not
    count it again); `result`: what the call returned, when it ran before the refusal."""

    def __init__(self, message, consequence=False):
        super().__init__(message)
        self.consequence = consequence


def _installed_binary():
    """The command `cmake --install` put beside this package (its _installed.py), if it did."""
    try:
        from thundercc_frontend._installed import BINARY
        return BINARY
    except ImportError:
        return None


def thundercc_binary() -> str:
    for candidate in (os.environ.get("THUNDERCC"), str(REPO / "build" / "thundercc"), _installed_binary(), shutil.which("thundercc")):
        if candidate and Path(candidate).exists():
            return candidate
    raise CaptureError("cannot find the thundercc binary: build it (scripts/setup.sh) or set THUNDERCC")


_torch_language: list | None = None


def torch_language() -> list:
    """(id, aliases, the rest of its line) for each symbol of thundercc's torch language, as
    `thundercc ops --torch` lists them (aliases last on a line; `[random]` marks the ops that draw)."""
    global _torch_language
    if _torch_language is None:
        out = subprocess.run([thundercc_binary(), "ops", "--torch"], check=True, capture_output=True, text=True)
        _torch_language = []
        for line in out.stdout.splitlines():
            head, _, aliases = line.partition("  aliases: ")
            _torch_language.append((line.split("(", 1)[0], aliases.split(), head))
    return _torch_language


_known_ids: dict | None = None


def known_ids() -> dict:
    """Maps each torch callable thundercc knows to its symbol id (an id or alias of its torch language)."""
    global _known_ids
    if _known_ids is None:
        _known_ids = {}
        for symbol_id in (i for canonical, aliases, _ in torch_language() for i in (canonical, *aliases)):
            obj = _resolve(symbol_id)
            if obj is not None:
                _known_ids.setdefault(_key(obj), symbol_id)
    return _known_ids


_random_ids: set | None = None


def random_ids() -> set:
    """The ids of the torch-language ops that draw random values (`thundercc ops` marks them [random])."""
    global _random_ids
    if _random_ids is None:
        _random_ids = {i for canonical, aliases, head in torch_language() if "  [random]" in head for i in (canonical, *aliases)}
    return _random_ids


# A random op's arguments that make it the identity, drawing nothing: a dropout or rrelu outside
# training, or a dropout of probability 0.
_IDENTITY_ARGUMENTS = {"training": False, "train": False, "p": 0, "dropout_p": 0}


def _draws(symbol_id: str, args, kwargs) -> bool:
    """Whether a call of a [random] op draws: its arguments bound to thundercc's signature of it
    (defaults included) make it no identity."""
    head = next(h for canonical, aliases, h in torch_language() if symbol_id in (canonical, *aliases))
    names, values = [], {}
    for parameter in head[head.index("(") + 1:head.rindex(")")].split(", "):
        name, _, default = parameter.partition("=")
        if name in ("/", "*") or name.startswith("*"):
            continue
        names.append(name)
        if default:
            try:
                values[name] = ast.literal_eval(default)
            except (ValueError, SyntaxError):
                pass
    values.update(zip(names, args))
    values.update(kwargs)
    return not any(name in values and values[name] == identity for name, identity in _IDENTITY_ARGUMENTS.items())


_dunders: dict | None = None


def _dunder_symbols() -> dict:
    """Tensor's operator methods (by identity: Tensor.__pow__ is a Python function named 'pow')."""
    global _dunders
    if _dunders is None:
        _dunders = {_key(getattr(torch.Tensor, name)): target for name, target in DUNDERS.items()
                    if target is not None and hasattr(torch.Tensor, name)}
    return _dunders


def _resolve(dotted: str):
    parts = dotted.split(".")
    obj = torch
    for p in parts[1:]:
        obj = getattr(obj, p, None)
        if obj is None:
            return None
    return obj


def _key(fn):
    # Method descriptors and builtins are stable objects; compare by identity.
    return id(fn)


def _display_name(func) -> str:
    module = getattr(func, "__module__", None) or ""
    qualname = getattr(func, "__qualname__", getattr(func, "__name__", repr(func)))
    # The public name when there is one: torch.einsum, not torch.functional.einsum.
    for public, namespace in (("torch", torch), ("torch.nn.functional", torch.nn.functional)):
        if getattr(namespace, qualname, None) is func:
            return f"{public}.{qualname}"
        if "<locals>" in qualname:  # a function made by a factory (boolean_dispatch: unique, max_pool2d)
            for attr in dir(namespace):
                if getattr(namespace, attr, None) is func:
                    return f"{public}.{attr}"
    module = {"torch._C._nn": "torch.nn.functional", "torch._C._VariableFunctions": "torch"}.get(module, module)
    qualname = qualname.replace("_TensorBase.", "Tensor.").replace("_VariableFunctionsClass.", "")
    if qualname.startswith("Tensor."):
        return "torch." + qualname
    return f"{module}.{qualname}" if module else qualname


def _user_frame(called=None) -> str:
    """file:line of the innermost frame outside torch and this module (the user's own line); when the
    call comes from inside torch.nn's own code with no user frame below capture(), the line in
    torch that made the call (not the called function's own frames, nor torch's dispatch)."""
    here = Path(__file__).resolve()
    torch_dir = Path(torch.__file__).resolve().parent
    dispatch = {torch_dir / "overrides.py", torch_dir / "_tensor.py"}
    frame = inspect.currentframe()
    innermost = None
    while frame is not None:
        path = Path(frame.f_code.co_filename).resolve()
        if path == here and frame.f_code.co_name == "capture":
            break  # the program's frames end here; what is above is the caller of capture()
        if path != here and path not in dispatch and frame.f_code is not getattr(called, "__code__", None) \
                and not frame.f_code.co_filename.startswith("<frozen"):
            innermost = innermost or (path, frame.f_lineno)
            if torch_dir not in path.parents:
                return _shown(path, frame.f_lineno)
        frame = frame.f_back
    return _shown(*innermost) if innermost else "<unknown>"


def _shown(path: Path, line: int) -> str:
    shown = str(path)
    try:
        relative = os.path.relpath(path)
        if not relative.startswith(".."):
            shown = relative
    except ValueError:
        pass
    return f"{shown}:{line}"


def _source_text(where: str) -> str:
    import linecache

    path, _, line = where.rpartition(":")
    text = linecache.getline(path, int(line)).strip() if line.isdigit() else ""
    return f" `{text}`" if text else ""


class _Recorder(TorchFunctionMode):
    def __init__(self, capture: "Capture"):
        super().__init__()
        self.capture = capture

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        return self.capture.recording(lambda: self._capture(func, args, kwargs), lambda: func(*args, **kwargs),
                                      _display_name(func), lambda: _user_frame(func))

    def _capture(self, func, args, kwargs):
        name = getattr(func, "__name__", "")
        original = getattr(func, "_thundercc_original", None)
        if original is not None:  # the Tensor.__getitem__ wrapper, which records the call itself
            return original(*args, **kwargs)
        if name in METADATA and not _is_tensor_property(func):
            return func(*args, **kwargs)
        tensors = _tensors_in(args) + _tensors_in(list(kwargs.values()))
        if name in PYTHON_ONLY and not tensors:
            return func(*args, **kwargs)
        where = _user_frame(func)
        display = _display_name(func)
        if display == "torch._nested_tensor_from_mask_left_aligned":
            return _math_path_of_nested_encoder(args[1])
        if name in GUARDED and len(args) == 1 and isinstance(args[0], torch.Tensor) and args[0].numel() == 1:
            value = func(*args, **kwargs)
            if id(args[0]) in self.capture._drawn:
                warnings.warn(f"thundercc: {display} at {where} reads a randomly drawn value: the trace takes the path "
                              f"this capture's draw took, on every run (no guard can check a draw)", stacklevel=2)
            else:
                self.capture._record_guard(args[0], display, where)
            return value
        if name in DATA_DEPENDENT or name in GUARDED:
            raise CaptureError(f"{display} reads tensor data, which a trace cannot depend on (of the reads of "
                               f"values, only .item(), int(), float() and bool() of a one-element tensor are "
                               f"specialized and guarded), at {where}:{_source_text(where)}")
        if display.rsplit(".", 1)[-1] in DATA_DEPENDENT_SHAPE:
            raise CaptureError(f"{display} gives a result whose shape depends on tensor values, which a static trace "
                               f"cannot hold, at {where}:{_source_text(where)}")
        symbol_id, swap = self._symbol_for(func, name)
        if symbol_id is None:
            raise CaptureError(f"thundercc does not support {display}, at {where}:{_source_text(where)}")
        self.capture._before_call(symbol_id, args, kwargs)
        versions = [_version_of(t) for t in tensors]
        if symbol_id in READS_VALUES_OF_TENSORS:
            result = _with_tensor_indexing_unwrapped(lambda: func(*args, **kwargs))
        else:
            result = func(*args, **kwargs)
        mutated = [t for t, v in zip(tensors, versions) if _version_of(t) != v]
        if symbol_id in NORMALIZATIONS_WITH_STATISTICS:
            # ATen's batch_norm updates the running statistics without bumping their version counters;
            # its instance_norm bumps them even where it only reads them (copying their mean onto them).
            stats = _running_statistics(symbol_id, args, kwargs)
            mutated = [t for t in mutated if all(t is not s for s in stats)]
            if _updates_statistics(symbol_id, args, kwargs):
                mutated += list(stats)
            else:
                for s in stats:  # unchanged: their names still hold
                    if id(s) in self.capture._versions:
                        self.capture._versions[id(s)] = _version_of(s)
        call_args = list(args)
        # Warning bookkeeping of torch.nn.functional, not part of the op.
        kwargs = {k: v for k, v in kwargs.items() if k != "_stacklevel"}
        try:
            if not mutated:
                call_args, kwargs = self.capture._autocast_inputs(func, call_args, kwargs, result, where)
            if not torch.is_grad_enabled():
                call_args, kwargs = self.capture._detached_inputs(call_args, kwargs, where)
            if swap:
                call_args = [call_args[1], call_args[0]] + call_args[2:]
            if name == "__rpow__":
                # Tensor.__rpow__ is torch.tensor(base) ** self: the base is copied, no gradient reaches it.
                base, _ = self.capture._replace_inputs(call_args[:1], {}, lambda v: v.requires_grad, lambda v: v.detach(),
                                                       "torch.Tensor.detach", [], where)
                call_args = base + call_args[1:]
            call_args, kwargs = self.capture._specialized_sizes(symbol_id, call_args, kwargs, display, where)
            if symbol_id == "torch.Tensor.to":
                call_args, kwargs = _without_transfer_flags(call_args, kwargs)
            self.capture._record(symbol_id, call_args, kwargs, result, where, mutated)
        except CaptureError as e:
            e.result = result  # the call ran: capture --check must not run it again
            raise
        if (symbol_id in random_ids() and _draws(symbol_id, args, kwargs)) or \
                any(id(t) in self.capture._drawn for t in tensors):
            self.capture._drawn.update(id(t) for t in _flat_tensors(result))
        return result

    def _symbol_for(self, func, name):
        if _is_tensor_property(func):
            return known_ids()[_key(func.__self__)], False
        if _key(func) in _dunder_symbols():
            return _dunder_symbols()[_key(func)]
        return known_ids().get(_key(func)), False


_INDEXING = ("__getitem__", "__setitem__")


def _without_transfer_flags(args, kwargs):
    """Tensor.to(device, dtype, non_blocking, copy) as Thunder's to(a, device, dtype, copy=copy): the
    positional flags after the device and dtype, non_blocking dropped (it changes no value)."""
    flags = [a for a in args[1:] if isinstance(a, bool)]
    kwargs = {k: v for k, v in kwargs.items() if k != "non_blocking"}
    if len(flags) == 2:
        kwargs["copy"] = flags[1]
    return [a for a in args if not isinstance(a, bool)], kwargs


def _wrap_tensor_indexing(getitem, setitem) -> None:
    torch.Tensor.__getitem__ = getitem
    torch.Tensor.__setitem__ = setitem


def _unwrap_tensor_indexing() -> None:
    """Tensor's indexing as PyTorch defines it, on its C base class. A Python class once given
    __getitem__ keeps CPython's generic sequence slot (sq_item) even after the attribute is deleted,
    and PyTorch's C++ then takes every tensor for a sequence: torch.tensor([a.sum()]) asks a 0-d
    tensor its len() and fails, for the rest of the process. So the slot is cleared too, as the
    class had it before."""
    for name in _INDEXING:
        if name in torch.Tensor.__dict__:
            delattr(torch.Tensor, name)
    _clear_sequence_item_slot(torch.Tensor)


def _clear_sequence_item_slot(cls) -> None:
    if sys.implementation.name != "cpython":
        return
    check = ctypes.pythonapi.PySequence_Check
    check.argtypes = [ctypes.py_object]
    probe = torch.zeros(())
    if not check(probe):
        return
    # PyTypeObject.tp_as_sequence (the 14th pointer-sized field) points, in a heap type, into the
    # type object itself; sq_item is the 4th entry of PySequenceMethods.
    word = ctypes.sizeof(ctypes.c_void_p)
    methods = ctypes.c_void_p.from_address(id(cls) + 13 * word).value or 0
    if not id(cls) < methods < id(cls) + type(cls).__basicsize__:
        return
    ctypes.c_void_p.from_address(methods + 3 * word).value = None
    assert not check(probe)


def _with_tensor_indexing_unwrapped(call):
    """call() with Tensor's own indexing, the capture's wrappers put back after it."""
    wrappers = [torch.Tensor.__dict__.get(name) for name in _INDEXING]
    _unwrap_tensor_indexing()
    try:
        return call()
    finally:
        if all(wrappers):
            _wrap_tensor_indexing(*wrappers)


def saveable(t):
    """A tensor's values as torch.save must write them: PyTorch 1.13 drops a lazy conjugate or
    negation (x.conj()) and refuses views of one storage as two dtypes (c and c.real); files hold
    CPU tensors (`thundercc run` moves them to the plan's device)."""
    return t.detach().resolve_conj().resolve_neg().cpu().clone()


def _is_tensor_property(func) -> bool:
    """Whether func reads a property that thundercc computes (x.T, x.mT, x.real, ...): the getter of
    a Tensor attribute with a symbol of its own, where other attributes (shape, dtype) are metadata."""
    return getattr(func, "__name__", "") == "__get__" and _key(getattr(func, "__self__", None)) in known_ids()


# The normalizations that keep running statistics, which they update in place while they use the
# input's own: batch_norm in training, instance_norm with use_input_stats.
NORMALIZATIONS_WITH_STATISTICS = {"torch.nn.functional.batch_norm": torch.nn.functional.batch_norm,
                                  "torch.nn.functional.instance_norm": torch.nn.functional.instance_norm}


def _normalization_arguments(symbol_id, args, kwargs) -> dict:
    """A batch_norm or instance_norm call's arguments by parameter name."""
    return inspect.signature(NORMALIZATIONS_WITH_STATISTICS[symbol_id]).bind(*args, **kwargs).arguments


def _running_statistics(symbol_id, args, kwargs) -> tuple:
    """The running mean and variance of a batch_norm or instance_norm call (the tensors among them)."""
    bound = _normalization_arguments(symbol_id, args, kwargs)
    return tuple(t for t in (bound.get("running_mean"), bound.get("running_var")) if isinstance(t, torch.Tensor))


def _updates_statistics(symbol_id, args, kwargs) -> bool:
    """Whether the call updates its running statistics (from the input's)."""
    if symbol_id not in NORMALIZATIONS_WITH_STATISTICS:
        return False
    bound = _normalization_arguments(symbol_id, args, kwargs)
    flag = "training" if symbol_id == "torch.nn.functional.batch_norm" else "use_input_stats"
    return bool(bound.get(flag, flag == "use_input_stats")) and bool(_running_statistics(symbol_id, args, kwargs))


def _version_of(t) -> int:
    """A tensor's version counter, which counts its in-place modifications; tensors made under
    torch.inference_mode have none (their in-place ops are still recorded by name)."""
    return 0 if t.is_inference() else t._version


def _flat_tensors(value) -> list:
    """The tensors of an op's result, in order, through tuples and lists."""
    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, (list, tuple)):
        return [t for v in value for t in _flat_tensors(v)]
    return []


def _tensors_in(values) -> list:
    """The tensors among values, looking one level into lists and tuples (torch.cat's argument)."""
    out = []
    for v in values:
        if isinstance(v, torch.Tensor):
            out.append(v)
        elif isinstance(v, (list, tuple)):
            out.extend(x for x in v if isinstance(x, torch.Tensor))
    return out


class Capture:
    """The trace of one eager run, in the trace.json format.

    Mutation: an in-place op (x.add_(y), x += y, x[i] = y, relu(x, inplace=True)) is recorded like
    any other op, with a fresh name for what x holds afterwards; later uses of x read that name, so
    the trace stays functional (Thunder's functionalization, done as the program runs). The
    compiler writes the last value back into a program input that was mutated (prims.copy_). What
    the trace could not express is refused: a mutation of any argument but the first, or of a view
    of a program input, and any use of a tensor modified behind the trace's back (through a view of
    it, say), which PyTorch's version counters reveal.
    """

    def __init__(self, name: str):
        self.name = name
        self.inputs: list[dict] = []
        self.bound_symbols: list[dict] = []
        self.output = None
        self.input_values: list = []     # the tensors, in signature order (for --save-io)
        self.output_values: list = []    # the eager outputs, flattened: tensors, and None where the output has None
        self._names: dict[int, str] = {}
        self._alive: list = []           # keeps recorded tensors alive so their ids stay unique
        self._drawn: set = set()         # ids of tensors whose values depend on a random draw
        self._used: set[str] = set()
        self._counter = 0
        self._versions: dict[int, int] = {}  # tensor id -> its version counter when named
        self._input_ids: dict[int, int] = {}  # tensor id -> index in input_values
        self.inputs_before: dict[int, torch.Tensor] = {}  # index -> copy of an input a call may modify, from before
        self._mutated: set[int] = set()  # indices of the inputs a recorded call modified in place
        self._view_of: dict[int, tuple] = {}  # id(view) -> (base, key): views made by basic indexing
        self.scopes: list[str] = []      # the paths of the modules being called, innermost last
        self._recorded_grad: set[int] = set()  # ids of tensors the trace records as requiring grad
        # capture --check: every refusal (op, place, message) instead of stopping at the first, and
        # the ids of the tensors refused calls made (what reads them is not refused again).
        self.refusals: list[tuple[str, str, str]] | None = None
        self._unrecorded: set[int] = set()
        self.symbols: list[dict] | None = None  # the symbolic dimensions of capture_dynamic's trace (dynamic.py)

    def recording(self, record, call, display: str, where):
        """record(): records a call and returns its result. Under capture --check a refusal is
        noted instead of raised: the call runs eagerly if it has not run, and the program goes on
        with its results unrecorded."""
        if self.refusals is None:
            return record()
        try:
            return record()
        except CaptureError as error:
            result = error.result if hasattr(error, "result") else call()
            if not error.consequence:
                self.refusals.append((display, where(), str(error)))
            self._unrecorded.update(id(t) for t in _flat_tensors(result))
            self._alive.append(result)
            return result

    def _scope(self) -> dict:
        """The module a statement is recorded in, as trace.json's optional "scope"."""
        return {"scope": self.scopes[-1]} if self.scopes else {}

    # Names -----------------------------------------------------------------------------------
    def _fresh_name(self) -> str:
        while True:
            name = f"t{self._counter}"
            self._counter += 1
            if name not in self._used:
                self._used.add(name)
                return name

    def _unique(self, name: str) -> str:
        """name made a valid Python identifier (other characters become _) and unique."""
        name = "".join(c if c.isalnum() or c == "_" else "_" for c in name)
        if not name.isidentifier() or keyword.iskeyword(name):
            name = "t_" + name
        candidate, n = name, 0
        while candidate in self._used:
            n += 1
            candidate = f"{name}_{n}"
        return candidate

    def _name_input(self, tensor: torch.Tensor, name: str) -> None:
        if id(tensor) in self._names:
            raise CaptureError(f"the same tensor is passed as two inputs ({self._names[id(tensor)]} and {name})")
        self._used.add(name)
        self._names[id(tensor)] = name
        self._versions[id(tensor)] = _version_of(tensor)
        self._input_ids[id(tensor)] = len(self.input_values)
        self._alive.append(tensor)

    def _root(self, t):
        """The tensor a view made by indexing (possibly of another such view) is a view of."""
        while isinstance(t, torch.Tensor) and id(t) in self._view_of:
            t = self._view_of[id(t)][0]
        return t

    def _note_view(self, base: torch.Tensor, key, view) -> None:
        """Remembers that view is base[key] (basic indexing), so a mutation of view can be written back."""
        parts = key if isinstance(key, tuple) else (key,)
        if isinstance(view, torch.Tensor) and view._base is not None and \
                all(p is None or p is Ellipsis or isinstance(p, (int, slice)) for p in parts):
            self._view_of[id(view)] = (base, key)

    def _is_own_view(self, base, key, value) -> bool:
        """Whether value is the view base[key] and holds what the trace says it holds."""
        seen = self._view_of.get(id(value))
        return seen is not None and seen[0] is base and seen[1] == key and _version_of(value) == self._versions.get(id(value))

    def _before_call(self, symbol_id, args, kwargs) -> None:
        """Keeps a copy of a program input the call may modify in place (its first argument, or a
        batch norm's running statistics), so that NAME.inputs.pt holds what the program was given."""
        candidates = [self._root(args[0])] if args else []
        if symbol_id in NORMALIZATIONS_WITH_STATISTICS:
            candidates += list(_running_statistics(symbol_id, args, kwargs))
        for tensor in candidates:
            if isinstance(tensor, torch.Tensor) and id(tensor) in self._input_ids:
                index = self._input_ids[id(tensor)]
                if index not in self.inputs_before:
                    self.inputs_before[index] = tensor.detach().clone()

    # Encoding --------------------------------------------------------------------------------
    @staticmethod
    def _meta(t: torch.Tensor) -> dict:
        if t.dtype not in DTYPE_NAMES:
            raise CaptureError(f"dtype {t.dtype} is not supported")
        device = str(t.device)
        if device == "cuda":
            device = "cuda:0"
        # Under torch.no_grad() the program is inference: its parameters require no grad in the trace.
        requires_grad = t.requires_grad and torch.is_grad_enabled()
        return {"shape": list(t.shape), "dtype": DTYPE_NAMES[t.dtype], "device": device, "requires_grad": requires_grad}

    def _value(self, v, where: str):
        if isinstance(v, torch.Tensor):
            if id(v) in self._unrecorded:
                raise CaptureError("reads the result of a call capture refused", consequence=True)
            if id(v) not in self._names:
                raise CaptureError(f"a tensor that is neither an input nor the result of a captured op is used at "
                                   f"{where}:{_source_text(where)} (pass it as an argument, or register it on the module)")
            if _version_of(v) != self._versions[id(v)]:
                raise CaptureError(f"{self._names[id(v)]} was modified in place through a view or another alias, "
                                   f"which thundercc cannot capture yet; it is used at {where}:{_source_text(where)}")
            return {"ref": self._names[id(v)]}
        if v is None or isinstance(v, (bool, str)):
            return v
        if isinstance(v, int):
            return v
        if isinstance(v, float):
            if math.isnan(v):
                return {"float": "nan"}
            if math.isinf(v):
                return {"float": "inf" if v > 0 else "-inf"}
            return v
        if isinstance(v, complex):
            return {"complex": [v.real, v.imag]}
        if isinstance(v, torch.Size):
            return {"tuple": list(v)}
        if isinstance(v, tuple):
            return {"tuple": [self._value(x, where) for x in v]}
        if isinstance(v, (list, range)):  # a range is the list of its values (x[range(n)])
            return {"list": [self._value(x, where) for x in v]}
        if isinstance(v, slice):
            return {"slice": [self._slice_part(v.start, where), self._slice_part(v.stop, where), self._slice_part(v.step, where)]}
        if v is Ellipsis:
            return {"ellipsis": True}
        if isinstance(v, torch.dtype):
            return {"torch_dtype": DTYPE_NAMES[v]}
        if isinstance(v, torch.device):
            return {"torch_device": "cuda:0" if str(v) == "cuda" else str(v)}
        if isinstance(v, torch.memory_format):
            return str(v)  # a layout, which a functional trace's values do not depend on: kept as its name
        raise CaptureError(f"cannot record an argument of type {type(v).__name__} at {where}:{_source_text(where)}")

    def _slice_part(self, x, where):
        if x is None or isinstance(x, int):
            return x
        raise CaptureError(f"slice bounds must be ints, got {type(x).__name__} at {where}:{_source_text(where)}")

    def _definition(self, result, where: str):
        if isinstance(result, torch.Tensor):
            name = self._fresh_name()
            self._names[id(result)] = name
            self._versions[id(result)] = _version_of(result)
            self._alive.append(result)
            meta = self._meta(result)
            if meta["requires_grad"]:
                self._recorded_grad.add(id(result))
            return {"tensor": dict(name=name, **meta)}
        if isinstance(result, (tuple, list)):
            return {"tuple" if isinstance(result, tuple) else "list": [self._definition(x, where) for x in result]}
        return None

    def _autocast_inputs(self, func, args, kwargs, result, where):
        """Under torch.autocast, the casts autocast made before this op, as recorded casts: autocast
        runs an op in its lower precision (matrix products, convolutions) or in float32 (reductions,
        losses) by converting its floating-point inputs, below the torch functions a trace records.
        Which ops it converts is read off the op itself: run again with autocast off, the op gives
        another dtype exactly when autocast converted its inputs, and then to the dtype it gave.
        Returns the arguments with each converted input replaced by its recorded cast."""
        devices = {t.device.type for t in _tensors_in(list(args) + list(kwargs.values()))}
        enabled = (("cpu" in devices and torch.is_autocast_cpu_enabled()) or
                   ("cuda" in devices and torch.is_autocast_enabled()))
        outputs = [t for t in _flat_tensors(result) if t.is_floating_point()]
        if not enabled or not outputs:
            return args, kwargs
        cpu, cuda = torch.is_autocast_cpu_enabled(), torch.is_autocast_enabled()
        try:
            torch.set_autocast_cpu_enabled(False)
            torch.set_autocast_enabled(False)
            with torch._C.DisableTorchFunction(), torch.no_grad():
                plain = [t.dtype for t in _flat_tensors(func(*args, **kwargs)) if t.is_floating_point()]
        except RuntimeError:  # inputs of mixed dtypes that only autocast's casts reconcile
            plain = None
        finally:
            torch.set_autocast_cpu_enabled(cpu)
            torch.set_autocast_enabled(cuda)
        if plain == [t.dtype for t in outputs]:
            return args, kwargs
        target = outputs[0].dtype
        converts = lambda v: v.is_floating_point() and v.dtype != target  # noqa: E731
        return self._replace_inputs(args, kwargs, converts, lambda v: v.to(target), "torch.Tensor.to", [target], where)

    def _detached_inputs(self, args, kwargs, where):
        """Inside torch.no_grad() or torch.inference_mode(), the inputs the trace records as
        requiring grad, each recorded as detached first: no gradient flows through what the region
        computes. A program captured under no_grad as a whole records none (its parameters
        require no grad in the trace), so it gets no detach (each would be a copy)."""
        return self._replace_inputs(args, kwargs, lambda v: id(v) in self._recorded_grad, lambda v: v.detach(),
                                    "torch.Tensor.detach", [], where)

    def _replace_inputs(self, args, kwargs, selects, make, symbol_id, extra_args, where):
        """The arguments with each tensor `selects` picks replaced by `make` of it, recorded as
        `symbol_id(tensor, *extra_args)` once per tensor."""
        made = {}

        def replace(v):
            if isinstance(v, torch.Tensor) and selects(v):
                if id(v) not in made:
                    with torch._C.DisableTorchFunction():
                        made[id(v)] = make(v)
                    self._record(symbol_id, [v, *extra_args], {}, made[id(v)], where)
                return made[id(v)]
            if isinstance(v, (list, tuple)):
                return type(v)(replace(x) for x in v)
            return v

        return [replace(a) for a in args], {k: replace(v) for k, v in kwargs.items()}

    def _specialized_sizes(self, symbol_id, args, kwargs, display, where):
        """The call with its shape-deciding tensors (SIZE_ARGUMENTS) as lists of the values seen now,
        each guarded; PyTorch's packed overload of a recurrent op, (data, batch_sizes, hx, params,
        has_biases, num_layers, dropout, train, bidirectional), as the padded one with batch_sizes."""
        if symbol_id in RECURRENT and len(args) == 9 and isinstance(args[3], (list, tuple)):
            sizes = self._record_guard(args[1], display, where, values=True)
            return [args[0], *args[2:], False], {**kwargs, "batch_sizes": sizes}

        def specialized(v):
            return self._record_guard(v, display, where, values=v.dim() == 1) if isinstance(v, torch.Tensor) else v
        args, kwargs = list(args), dict(kwargs)
        for position, name in SIZE_ARGUMENTS.get(symbol_id, {}).items():
            if position < len(args):
                args[position] = specialized(args[position])
            elif name in kwargs:
                kwargs[name] = specialized(kwargs[name])
        return args, kwargs

    def _record_guard(self, tensor, display, where, values=False):
        """A read of `tensor`'s one value (.item(), int(t), bool(t) in an `if`, ...), or with `values`
        of a 1-d integer tensor's values: the trace goes on with the value seen now, so it records the
        value and where it was read, for the plan to check. Returns the value."""
        with torch._C.DisableTorchFunction():
            value = tensor.tolist() if values else tensor.item()
        read = f"{display} at {where}{_source_text(where)}"
        self.bound_symbols.append({
            "symbol": "prims.check_tensor_value",
            "args": [self._value(tensor, where), self._value(value, where), read],
            "kwargs": {},
            "output": None,
            "source": where,
            **self._scope(),
        })
        return value

    def _record(self, symbol_id, args, kwargs, result, where, mutated=()):
        if mutated and symbol_id in NORMALIZATIONS_WITH_STATISTICS:
            return self._record_statistics_update(symbol_id, args, kwargs, result, where, mutated)
        if mutated:
            target = args[0] if args else None
            if any(t is not target for t in mutated):
                which = [f"argument {i}" for i, a in enumerate(args) if i and any(a is t for t in mutated)] + \
                        [k for k, v in kwargs.items() if any(v is t for t in mutated)]
                cause = {"torch.nn.functional.embedding": " (max_norm renormalizes the weight's rows in place)"}.get(symbol_id, "")
                raise CaptureError(f"{symbol_id} modifies its {', '.join(which) or 'arguments'} in place{cause}, which thundercc "
                                   f"captures only for a first argument (and batch and instance norms' running statistics), "
                                   f"at {where}:{_source_text(where)}")
            base = target._base
            if base is not None and id(target) not in self._view_of and id(base) in self._input_ids:
                raise CaptureError(f"{symbol_id} modifies a view of the input {self._names[id(base)]} in place, which "
                                   f"thundercc cannot capture yet (only views made by indexing are), at "
                                   f"{where}:{_source_text(where)}")
            # The arguments as they were: the mutated tensor's name still refers to its old value.
            self._versions[id(target)] = _version_of(target)
            root = self._root(target)
            if id(root) in self._input_ids:
                self._mutated.add(self._input_ids[id(root)])
            # What the first argument holds afterwards is the op's result (__setitem__ returns None).
            result = target
        self.bound_symbols.append({
            "symbol": symbol_id,
            "args": [self._value(a, where) for a in args],
            "kwargs": {k: self._value(v, where) for k, v in kwargs.items()},
            "output": self._definition(result, where),
            "source": where,
            **self._scope(),
        })
        # A view made by indexing shares its base's memory: the base, and its own base in turn,
        # now hold the view's new value at the key (base[key] = view, recorded in place).
        view = result if mutated else None
        while view is not None and id(view) in self._view_of:
            base, key = self._view_of[id(view)]
            self._versions[id(base)] = _version_of(base)
            self.bound_symbols.append({
                "symbol": "torch.Tensor.__setitem__",
                "args": [self._value(base, where), self._value(key, where), self._value(view, where)],
                "kwargs": {},
                "output": self._definition(base, where),
                "source": where,
                **self._scope(),
            })
            view = base

    def _record_statistics_update(self, symbol_id, args, kwargs, result, where, mutated) -> None:
        """batch_norm in training (instance_norm with use_input_stats) also updates its running
        statistics in place: recorded as the normalization, then the batch's mean and unbiased
        variance (instance_norm: each sample's, averaged over the batch, as ATen's), then
        running.lerp_(batch, momentum) for each statistic, which functionalization writes back like
        any in-place op."""
        op = symbol_id.rsplit(".", 1)[-1]
        stats = _running_statistics(symbol_id, args, kwargs)
        if any(all(t is not s for s in stats) for t in mutated):
            raise CaptureError(f"{op} modifies an argument other than its running statistics in place, at "
                               f"{where}:{_source_text(where)}")
        bound = _normalization_arguments(symbol_id, args, kwargs)
        momentum = bound.get("momentum", 0.1)
        if momentum is None:
            raise CaptureError(f"{op} with momentum=None (a cumulative average) is not supported yet, at "
                               f"{where}:{_source_text(where)}")
        for s in stats:  # their names still refer to the statistics before this call
            self._versions[id(s)] = _version_of(s)
        self._record(symbol_id, args, kwargs, result, where)
        x = bound["input"]
        per_sample = symbol_id == "torch.nn.functional.instance_norm"
        dims = list(range(2, x.dim())) if per_sample else [0] + list(range(2, x.dim()))
        if stats and x.dtype != stats[0].dtype:
            # A low-precision input beside float statistics (autocast): the batch's statistics in
            # theirs, as ATen computes them (lerp_ takes no mixed dtypes).
            with torch._C.DisableTorchFunction():
                widened = x.to(stats[0].dtype)
            self._record("torch.Tensor.to", [x, stats[0].dtype], {}, widened, where)
            x = widened
        with torch._C.DisableTorchFunction():
            batch = [torch.mean(x, dims), torch.var(x, dims, unbiased=True)]
        self._record("torch.mean", [x, dims], {}, batch[0], where)
        self._record("torch.var", [x, dims], {"unbiased": True}, batch[1], where)
        if per_sample:
            samples = batch
            with torch._C.DisableTorchFunction():
                batch = [torch.mean(s, [0]) for s in samples]
            for sample, averaged in zip(samples, batch):
                self._record("torch.mean", [sample, [0]], {}, averaged, where)
        for statistic, value in zip(stats, batch):
            self._record("torch.Tensor.lerp_", [statistic, value, momentum], {}, statistic, where, mutated=[statistic])
            # PyTorch updates the statistics without autograd; in the trace the new value is computed
            # from x, and requires grad when x does (nothing differentiates it: it is only written back).
            self.bound_symbols[-1]["output"]["tensor"]["requires_grad"] = value.requires_grad

    def _add_input(self, name: str, value, fqn=None) -> None:
        """fqn: a module's parameter or buffer, the state_dict keys that hold it."""
        name = self._unique(name)
        if isinstance(value, torch.Tensor):
            self._name_input(value, name)
            meta = self._meta(value)
            if meta["requires_grad"]:
                self._recorded_grad.add(id(value))
            self.inputs.append({"name": name, "tensor": meta, **({"fqn": fqn} if fqn else {})})
            self.input_values.append(value)
        elif isinstance(value, bool) or isinstance(value, (int, float)):
            kind = "bool" if isinstance(value, bool) else "int" if isinstance(value, int) else "float"
            self._used.add(name)
            self.inputs.append({"name": name, "number": {"kind": kind, "value": self._value(value, "<inputs>")}})
        elif isinstance(value, (tuple, list)) and all(isinstance(x, torch.Tensor) for x in value):
            items = []
            for i, x in enumerate(value):
                item = self._unique(f"{name}_{i}")
                self._name_input(x, item)
                meta = self._meta(x)
                if meta["requires_grad"]:
                    self._recorded_grad.add(id(x))
                items.append({"tensor": dict(name=item, **meta)})
                self.input_values.append(x)
            self._used.add(name)
            self.inputs.append({"name": name, "collection": {"tuple" if isinstance(value, tuple) else "list": items}})
        # Other Python values (None, strings, modules) are constants of the program, not inputs.

    def to_json(self) -> dict:
        return {"format": FORMAT, "version": VERSION, "name": self.name, "inputs": self.inputs,
                "bound_symbols": self.bound_symbols, "output": self.output,
                **({"symbols": self.symbols} if self.symbols else {})}

    def input_values_before(self) -> list:
        """The inputs as the program received them (input_values holds them as it left them)."""
        return [self.inputs_before.get(i, t) for i, t in enumerate(self.input_values)]

    def expected_outputs(self) -> tuple:
        """The eager outputs as NAME.expected.pt holds them (what `thundercc run --expect` reads)."""
        return tuple(None if t is None else saveable(t) for t in self.output_values)

    def mutated_inputs(self) -> list[int]:
        """Indices (in input_values) of the inputs the program modified in place."""
        return sorted(self._mutated)

    def save(self, path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n")


def _flatten_outputs(result, capture: Capture, where: str):
    if isinstance(result, torch.Tensor) or result is None:
        # As `thundercc run` flattens a plan's outputs: a None holds its place.
        capture.output_values.append(result)
        return capture._value(result, where)
    if isinstance(result, (tuple, list)):
        items = [_flatten_outputs(x, capture, where) for x in result]
        return {"tuple": items} if isinstance(result, tuple) else {"list": items}
    if isinstance(result, dict):
        if not all(isinstance(k, str) for k in result):
            raise CaptureError("dict outputs need string keys")
        return {"dict": [[k, _flatten_outputs(v, capture, where)] for k, v in result.items()]}
    return capture._value(result, where)


def _math_path_of_nested_encoder(keep) -> bool:
    """nn.TransformerEncoder in eval, given a padding mask, asks whether the mask is left aligned
    before it runs PyTorch's nested-tensor path, which computes the tokens alone: its output is
    the math path's at the tokens, zeros at the padding, cut to the longest sequence. The capture
    answers no, so the layers run the math path (the layer's own slow path, which a trace holds),
    and hooks the last layer to do to its output what the nested path would, under guards on the
    mask's alignment and longest sequence (another mask is an error, never a wrong result)."""
    frame = sys._getframe()
    while frame is not None and frame.f_code is not torch.nn.TransformerEncoder.forward.__code__:
        frame = frame.f_back
    if frame is None:
        raise CaptureError("torch._nested_tensor_from_mask_left_aligned outside nn.TransformerEncoder is not supported")
    scope = frame.f_locals
    encoder, first = scope["self"], scope["self"].layers[0]
    weights = [p for p in first.parameters()] + [scope["src"]]
    # What PyTorch checks after the alignment, before it takes the nested path.
    nested = scope.get("mask") is None and first.self_attn.num_heads % 2 == 0 and not torch.is_autocast_enabled() and \
        not (torch.is_grad_enabled() and any(w.requires_grad for w in weights))

    def as_nested_path(layer, inputs, output):
        handle.remove()
        lengths = keep.sum(1)
        positions = torch.arange(keep.shape[1], device=keep.device)
        if not (bool((keep == (positions < lengths.unsqueeze(1))).all()) and nested):
            return output
        longest = int(lengths.max())
        return output.masked_fill(keep.logical_not().unsqueeze(-1), 0.0)[:, :longest]

    handle = encoder.layers[-1].register_forward_hook(as_nested_path)
    return False


def _record_module_scopes(module: torch.nn.Module, cap: "Capture") -> list:
    """Hooks every submodule so that the calls made inside it are recorded with its path
    ("h.0.mlp.c_fc") as their scope: the compiler's stable names (--names stable) are made of it."""
    hooks = []
    for path, submodule in module.named_modules():
        if not path:
            continue
        path = "".join(c if c.isascii() and (c.isalnum() or c in "_.") else "_" for c in path)[:256]
        hooks.append(submodule.register_forward_pre_hook(lambda m, a, path=path: cap.scopes.append(path)))
        # A forward hook's non-None result would replace the module's output.
        hooks.append(submodule.register_forward_hook(lambda m, a, r: None if cap.scopes.pop() else None))
    return hooks


def capture(fn, *args, **kwargs) -> Capture:
    """Runs fn(*args, **kwargs) once, eagerly, and returns its trace. An nn.Module's parameters and
    buffers become inputs named t_<path> (t_fc1_weight), after the arguments. Raises CaptureError
    at the first call it cannot capture."""
    return _capture(fn, args, kwargs, check=False)


def check(fn, *args, **kwargs) -> list[tuple[str, str, str]]:
    """Runs fn(*args, **kwargs) once, eagerly, as capture does, and returns every call capture
    would refuse, as (op, file:line, message), in the order the program made them."""
    return _capture(fn, args, kwargs, check=True).refusals


def _capture(fn, args, kwargs, check: bool) -> Capture:
    module = fn if isinstance(fn, torch.nn.Module) else None
    target = module.forward if module is not None else fn
    name = type(module).__name__ if module is not None else getattr(fn, "__name__", "computation")
    if not name.isidentifier():
        name = "computation"
    cap = Capture(name)
    if check:
        cap.refusals = []
    try:
        arguments = inspect.signature(target).bind(*args, **kwargs).arguments.items()
    except ValueError:
        # Builtins have no signature: positional inputs are named t_0, t_1, ... (Thunder's older naming).
        arguments = [(f"t_{i}", a) for i, a in enumerate(args)] + list(kwargs.items())
    for param, value in arguments:
        cap._add_input(param, value)
    if module is not None:
        # Each tensor's keys in the state_dict (a tied weight has several; a non-persistent buffer none).
        keys = {}
        for key, tensor in module.state_dict(keep_vars=True).items():
            keys.setdefault(id(tensor), []).append(key)
        for path, tensor in list(module.named_parameters()) + list(module.named_buffers()):
            cap._add_input("t_" + path.replace(".", "_"), tensor, keys.get(id(tensor)))
    known_ids()  # resolve the ids before the program runs, outside the mode
    _dunder_symbols()  # and the operators, by the identity they have before the wrapping below
    # PyTorch 1.13 does not report indexing with a single slice, int or tensor to the mode, so
    # Tensor.__getitem__ is wrapped for the duration of the capture, and records itself.
    original_getitem = torch.Tensor.__getitem__

    def getitem(self, key):
        def eager():
            with torch._C.DisableTorchFunction():
                return original_getitem(self, key)

        def record():
            items = key if isinstance(key, tuple) else (key,)
            if any(isinstance(k, torch.Tensor) and k.dtype in (torch.bool, torch.uint8) and k.dim() > 0 for k in items):
                where = _user_frame()
                raise CaptureError(f"x[mask] with a boolean mask gives a result whose shape depends on the mask's values, "
                                   f"which a static trace cannot hold (torch.where(mask, x, 0) keeps the shape), "
                                   f"at {where}:{_source_text(where)}")
            result = eager()
            try:
                cap._record("torch.Tensor.__getitem__", [self, key], {}, result, _user_frame())
                cap._note_view(self, key, result)
            except CaptureError as e:
                e.result = result
                raise
            return result

        return cap.recording(record, eager, "torch.Tensor.__getitem__", _user_frame)

    getitem._thundercc_original = original_getitem
    # Nor an assignment whose key is a tuple holding tensors (x[i, j] = v): Tensor.__setitem__ is
    # wrapped too, and records every assignment itself.
    original_setitem = torch.Tensor.__setitem__

    def setitem(self, key, value):
        def record():
            if cap._is_own_view(self, key, value):
                # x[i] += v: Python assigns back the view x[i] that the in-place add updated, and the
                # capture already wrote that back into x; the copy onto itself changes nothing.
                return
            with torch.overrides._pop_mode_temporarily():  # the recorder's own calls are not the program's
                cap._before_call("torch.Tensor.__setitem__", [self, key, value], {})
                original_setitem(self, key, value)
            try:
                cap._record("torch.Tensor.__setitem__", [self, key, value], {}, None, _user_frame(), [self])
            except CaptureError as e:
                cap._unrecorded.add(id(self))  # under --check: what it holds now is unknown to the trace
                e.result = None
                raise
            if isinstance(value, torch.Tensor) and id(value) in cap._drawn:
                cap._drawn.add(id(self))

        cap.recording(record, None, "torch.Tensor.__setitem__", _user_frame)

    setitem._thundercc_original = original_setitem
    _wrap_tensor_indexing(getitem, setitem)
    hooks = _record_module_scopes(module, cap) if module is not None else []
    try:
        with _Recorder(cap):
            result = fn(*args, **kwargs)
    finally:
        _unwrap_tensor_indexing()
        for hook in hooks:
            hook.remove()
    cap.output = cap.recording(lambda: _flatten_outputs(result, cap, "<return>"), lambda: None, "return", lambda: "<return>")
    return cap


from thundercc_frontend.dynamic import capture_dynamic, specialize  # noqa: E402,F401  (dynamic.py builds on capture)
from thundercc_frontend.compiled import Compiled, CompileError, Loaded, compile, load  # noqa: E402,F401  (compiled.py too)
