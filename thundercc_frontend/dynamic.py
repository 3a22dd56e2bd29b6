"""Symbolic sizes: a capture whose trace holds for a range of sizes of some input dimensions.

    from thundercc_frontend import capture_dynamic
    captured = capture_dynamic(model, (idx,), ["idx:0=batch", "idx:1:1:64"])
    captured.save("trace.json")   # sizes that change with them written as {"symint": "16*batch*s0"}

Each spec is INPUT:DIM[:MIN:MAX][=NAME]: the dimension DIM (negative counts from the last) of the
program's tensor argument INPUT may take any size in [MIN, MAX] (default [1, 2**31-1]); NAME, when
given, is its symbol's name, so that dimensions naming the same symbol always have the same size.

Nothing is traced symbolically. The program is captured at the example's sizes (the hints: this is
the capture returned, with the base run's tensors), then again at other sizes of each symbol, of
each pair of symbols, and (with several symbols) of all at once, then, to check the fit, at each
symbol's MIN and (when it is at most 8 times the example's) MAX, on inputs resized along their
dynamic dimensions by repeating their entries cyclically (so token ids stay valid). The traces are
compared position by position: what is equal everywhere is kept; an integer that differs is fitted
exactly by a polynomial of the symbols with the monomials 1, s_k and s_k*s_l (k < l) and written as
its expression. Hence the limits:
- sizes between those sampled are not checked: a branch on a size that none of the samples
  crosses (if x.shape[0] > 3, captured at 5 with MIN 4) goes unseen, and the plan takes the
  captured branch at every size; a range (MIN:MAX) bounds what the samples must show;
- the trace's structure (its statements, their symbols, names and kinds of values) must not depend
  on the sizes: control flow on a size cannot be captured;
- every integer that changes must be such a polynomial; one with rational coefficients is written
  as an exact division, which thundercc refuses at sizes where it is not exact (x.shape[0] // 2
  sampled at even sizes is (s0)/2; at odd ones, and a square of a size, no polynomial fits);
- a float, string or bool that changes with the sizes (x * (1.0 / x.shape[0])), and a value read
  from a tensor that changes with them (a guard, prims.check_tensor_value), are refused: the trace
  has no way to compute them from the symbols.
The samples leave no trace behind: torch's random state and the inputs (module parameters and
buffers included) are as the base capture left them. They cost 2n + n(n-1)/2 runs more for n
symbols (one more for n > 1), at up to 3 times the example's sizes.
"""
from __future__ import annotations

import json
import math
import re
import sys
import warnings
from dataclasses import dataclass, field
from fractions import Fraction

import torch

from thundercc_frontend import Capture, CaptureError, capture

DEFAULT_MAX = 2**31 - 1
SPEC = re.compile(r"(?P<input>[^:=]+):(?P<dim>-?\d+)(?::(?P<low>\d+):(?P<high>\d+))?(?:=(?P<name>.*))?")
NAME = r"[A-Za-z_][A-Za-z0-9_]*"
TERM = rf"(?:\d+|(?:\d+\*)?{NAME}(?:\*{NAME})*)"
SUM = rf"-?{TERM}(?: [+-] {TERM})*"
EXPRESSION = re.compile(rf"(?P<sum>{SUM})|\((?P<numerator>{SUM})\)/(?P<divisor>\d+)")
GUARD = "prims.check_tensor_value"
NOT_A_SIZE = ("a float made from a size cannot follow it: pass the size itself (x / x.shape[0], not "
              "x * (1.0 / x.shape[0]))")
CANNOT = ("a program whose trace depends on a size in another way cannot be captured with --dynamic over that range "
          "(INPUT:DIM:MIN:MAX narrows it)")


@dataclass
class Symbol:
    name: str
    low: int
    high: int
    hint: int
    dims: list = field(default_factory=list)  # (input name, dim, the input tensor) for each dimension it names

    def describe(self) -> str:
        """x.shape[0], or x.shape[0] = y.shape[0] for a symbol of two dimensions."""
        return " = ".join(f"{name}.shape[{dim}]" for name, dim, _ in self.dims)


def capture_dynamic(fn, args, dims, kwargs=None) -> Capture:
    """capture(fn, *args, **kwargs) with the dimensions `dims` names (INPUT:DIM[:MIN:MAX][=NAME]
    each) symbolic; the module docstring says how and what it refuses. The Capture returned is the
    one at the example's sizes; its to_json() (and save) writes the symbolic trace."""
    kwargs = kwargs or {}
    specs = [_parse(spec) for spec in ([dims] if isinstance(dims, str) else dims)]
    random_state = _random_state()
    base = capture(fn, *args, **kwargs)
    symbols = _symbols(specs, base, fn)
    hints = {s.name: s.hint for s in symbols}
    points = [hints]  # each capture's sizes, the base's first
    sizes = {s.name: _sample_sizes(s) for s in symbols}
    for which in (0, 1):
        points += [{**hints, s.name: sizes[s.name][which]} for s in symbols]
    points += [{**hints, k.name: sizes[k.name][0], l.name: sizes[l.name][0]}
               for i, k in enumerate(symbols) for l in symbols[i + 1:]]
    if len(symbols) > 1:
        points.append({s.name: sizes[s.name][1] for s in symbols})  # checks the fit, which it played no part in
    # The range's ends check it too: the smallest sizes are where programs most often differ.
    for s in symbols:
        for end in (s.low, s.high):
            if end not in (s.hint, *sizes[s.name]) and end <= 8 * s.hint and {**hints, s.name: end} not in points:
                points.append({**hints, s.name: end})

    after_base = _random_state()
    snapshot = [t.detach().clone() for t in base.input_values]
    documents = [base.to_json()]
    # On a terminal, a line in place says which capture runs (each is a whole run of the program).
    progress = sys.stderr.isatty()
    try:
        for k, point in enumerate(points[1:], 2):
            if progress:
                sizes_text = ", ".join(f"{name}={size}" for name, size in point.items())
                print(f"\r\033[Kcapture --dynamic: capture {k} of {len(points)} ({sizes_text})", end="", file=sys.stderr, flush=True)
            documents.append(_sample(fn, args, kwargs, symbols, point, random_state, base, snapshot))
    finally:
        _set_random_state(after_base)
        if progress:
            print("\r\033[K", end="", file=sys.stderr, flush=True)
    merged = _Fit(symbols, sizes, points, documents[0]).merge(documents, ())
    base.inputs, base.bound_symbols, base.output = merged["inputs"], merged["bound_symbols"], merged["output"]
    base.symbols = [{"name": s.name, "input": name, "dim": dim, "min": s.low, "max": s.high, "hint": s.hint}
                    for s in symbols for name, dim, _ in s.dims]
    return base


def specialize(doc: dict, values: dict) -> dict:
    """The symbolic trace `doc` at the sizes `values` (symbol name -> size): every symint
    evaluated, "symbols" dropped. At the hints it is the trace capture() records at the example."""
    def walk(node):
        if isinstance(node, dict):
            if list(node) == ["symint"]:
                return evaluate(node["symint"], values)
            return {k: walk(v) for k, v in node.items()}
        if isinstance(node, list):
            return [walk(v) for v in node]
        return node

    return {k: walk(v) for k, v in doc.items() if k != "symbols"}


def evaluate(expression: str, values: dict) -> int:
    """The value of a size expression (the grammar thundercc reads) at `values`; a division must be exact."""
    match = EXPRESSION.fullmatch(expression)
    if not match:
        raise ValueError(f"'{expression}' is not a size expression")
    divisor = int(match["divisor"] or 1)
    if match["divisor"] and divisor < 2:
        raise ValueError(f"'{expression}' divides by {divisor}")
    parts = re.split(r" ([+-]) ", match["sum"] or match["numerator"])
    signs = ["-" if parts[0].startswith("-") else "+", *parts[1::2]]
    total = 0
    for sign, term in zip(signs, [parts[0].lstrip("-"), *parts[2::2]]):
        product = 1
        for factor in term.split("*"):
            if not factor.isdigit() and factor not in values:
                raise ValueError(f"'{expression}' names {factor}, which has no value")
            product *= int(factor) if factor.isdigit() else values[factor]
        total += product if sign == "+" else -product
    if total % divisor:
        raise ValueError(f"'{expression}' is {total}/{divisor}, not an integer")
    return total // divisor


@dataclass
class _Spec:
    text: str
    input: str
    dim: int
    low: int
    high: int
    name: str | None


def _parse(text: str) -> _Spec:
    match = SPEC.fullmatch(text)
    if not match:
        raise CaptureError(f"--dynamic {text}: expected INPUT:DIM[:MIN:MAX][=NAME] (x:0, idx:1:1:64, y:0=batch)")
    name = match["name"]
    if name is not None and not re.fullmatch(NAME, name):
        raise CaptureError(f"--dynamic {text}: a symbol's name is a letter or _ then letters, digits or _, not '{name}'")
    low, high = (int(match["low"]), int(match["high"])) if match["low"] else (1, DEFAULT_MAX)
    if high > DEFAULT_MAX:
        raise CaptureError(f"--dynamic {text}: a size is at most {DEFAULT_MAX} (what the default range allows), not {high}")
    if high - low + 1 < 3:
        raise CaptureError(f"--dynamic {text}: the range [{low}, {high}] has fewer than 3 sizes, too few to fit "
                           f"the trace's sizes (a fixed size needs no --dynamic)")
    return _Spec(text, match["input"], int(match["dim"]), low, high, name)


def _symbols(specs: list[_Spec], base: Capture, fn) -> list[Symbol]:
    """The specs' symbols, in the order they are first named, checked against the base capture's inputs."""
    tensors = {base._names[id(t)]: t for t in base.input_values}
    module_state = {id(t) for t in (*fn.parameters(), *fn.buffers())} if isinstance(fn, torch.nn.Module) else set()
    arguments = [name for name, t in tensors.items() if id(t) not in module_state]
    taken = {spec.name for spec in specs if spec.name}
    unnamed = (f"s{i}" for i in range(len(specs) + len(taken)) if f"s{i}" not in taken)
    symbols: dict[str, Symbol] = {}
    for spec in specs:
        tensor = tensors.get(spec.input)
        if tensor is None:
            raise CaptureError(f"--dynamic {spec.text}: the program has no tensor input named {spec.input} (its tensor "
                               f"arguments: {', '.join(arguments) or 'none'})")
        if id(tensor) in module_state:
            raise CaptureError(f"--dynamic {spec.text}: {spec.input} is a parameter or buffer of the module, whose size "
                               f"is fixed; only the program's arguments can have dynamic sizes")
        dim = spec.dim + tensor.dim() if spec.dim < 0 else spec.dim
        if not 0 <= dim < tensor.dim():
            raise CaptureError(f"--dynamic {spec.text}: {spec.input} has {tensor.dim()} dimensions, no dimension {spec.dim}")
        hint = tensor.shape[dim]
        where = f"{spec.input}.shape[{dim}]"
        if any((spec.input, dim) == (name, d) for s in symbols.values() for name, d, _ in s.dims):
            raise CaptureError(f"--dynamic {spec.text}: {where} is already dynamic")
        if not spec.low <= hint <= spec.high:
            raise CaptureError(f"--dynamic {spec.text}: {where} is {hint} in the example, outside [{spec.low}, {spec.high}]")
        if hint == 0:
            raise CaptureError(f"--dynamic {spec.text}: {where} is 0 in the example: resizing needs entries to repeat")
        name = spec.name or next(unnamed)
        symbol = symbols.setdefault(name, Symbol(name, spec.low, spec.high, hint))
        if (symbol.low, symbol.high, symbol.hint) != (spec.low, spec.high, hint):
            raise CaptureError(f"--dynamic {spec.text}: {where} and {symbol.describe()} are both {name}, but "
                               f"{where} is {hint} in [{spec.low}, {spec.high}] and {symbol.describe()} is "
                               f"{symbol.hint} in [{symbol.low}, {symbol.high}]")
        symbol.dims.append((spec.input, dim, tensor))
    return list(symbols.values())


def _sample_sizes(symbol: Symbol) -> list[int]:
    """Two sizes other than the hint to capture at: multiples of it first (far from the special sizes
    0 and 1), then neighbours, within its range (whose 3 sizes or more always hold two)."""
    h = symbol.hint
    chosen = []
    for size in (2 * h, 3 * h, h + 1, h + 2, h - 1, h - 2):
        if size != h and symbol.low <= size <= symbol.high and size not in chosen:
            chosen.append(size)
    return chosen[:2]


def _sample(fn, args, kwargs, symbols, point, random_state, base, snapshot) -> dict:
    """The trace of the program at the sizes `point`, run from the random state the base run started
    from; afterwards the inputs hold again what the base run left in them (`snapshot`)."""
    resized = {}  # id(input) -> the input at the point's sizes
    with torch.no_grad():
        for symbol in symbols:
            for _, dim, tensor in symbol.dims:
                source = resized.get(id(tensor), tensor)
                cycle = torch.arange(point[symbol.name], device=tensor.device) % tensor.size(dim)
                resized[id(tensor)] = source.index_select(dim, cycle).requires_grad_(tensor.requires_grad)

    def resize(value):
        if isinstance(value, torch.Tensor):
            return resized.get(id(value), value)
        if isinstance(value, (tuple, list)):
            return type(value)(resize(v) for v in value)
        return value

    _set_random_state(random_state)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the base capture gave them once
            return capture(fn, *resize(tuple(args)), **{k: resize(v) for k, v in kwargs.items()}).to_json()
    except Exception as e:
        raise CaptureError(f"the program fails at {_sizes_text(symbols, point)} (a size --dynamic captures at to fit "
                           f"the trace's sizes; give INPUT:DIM:MIN:MAX a range the program takes): {e}") from e
    finally:
        with torch.no_grad():
            for tensor, saved in zip(base.input_values, snapshot):
                # Through .data, which leaves the version counter as the base run left it: autograd
                # checks it when the base run's graph (for --grad) reads a tensor it saved.
                tensor.data.copy_(saved)


def _random_state():
    return torch.get_rng_state(), torch.cuda.get_rng_state_all() if torch.cuda.is_initialized() else None


def _set_random_state(state) -> None:
    cpu, cuda = state
    torch.set_rng_state(cpu)
    if cuda is not None:
        torch.cuda.set_rng_state_all(cuda)


def _sizes_text(symbols, point) -> str:
    """The sizes at `point` that are not the hints: "x.shape[0] = 2, idx.shape[1] = 32"."""
    return ", ".join(f"{s.describe()} = {point[s.name]}" for s in symbols if point[s.name] != s.hint)


class _Fit:
    """Merges the documents captured at `points` into one symbolic document."""

    def __init__(self, symbols: list[Symbol], sizes: dict, points: list[dict], base_doc: dict):
        self.symbols, self.points, self.base_doc = symbols, points, base_doc
        self.steps = {s.name: sizes[s.name][0] - s.hint for s in symbols}  # from the hint to the first sample size
        self.index = {tuple(p.items()): j for j, p in enumerate(points)}

    def merge(self, nodes: list, path: tuple):
        first = nodes[0]
        if any(type(n) is not type(first) for n in nodes):  # 1 and 1.0 (and True) are equal, but not the same
            self._refuse(path, nodes, lambda part, j: f"{part} changes from {_shown(first)} to {_shown(nodes[j])}")
        if isinstance(first, dict):
            if any(list(n) != list(first) for n in nodes):
                self._refuse(path, nodes, lambda part, j: f"{part} has the fields {', '.join(nodes[j])} instead of "
                                                          f"{', '.join(first)}")
            return {key: self.merge([n[key] for n in nodes], path + (key,)) for key in first}
        if isinstance(first, list):
            # The items all documents have first: a statement that differs says more than a count.
            merged = [self.merge([n[i] for n in nodes], path + (i,)) for i in range(min(map(len, nodes)))]
            if any(len(n) != len(first) for n in nodes):
                self._refuse(path, nodes, lambda part, j: f"{part} has {len(nodes[j])} items instead of {len(first)}")
            return merged
        if all(n == first for n in nodes):
            return first
        if self._statement(path).get("symbol") == GUARD:
            self._refuse(path, nodes, lambda part, j: f"it guards a value read from a tensor, which changes with "
                                                      f"the size (from {_shown(first)} to {_shown(nodes[j])})")
        if type(first) is not int:
            self._refuse(path, nodes, lambda part, j: f"{part} changes from {_shown(first)} to {_shown(nodes[j])}",
                         why=NOT_A_SIZE if type(first) is float else CANNOT)
        return {"symint": self._fit(nodes, path)}

    def _fit(self, values: list[int], path: tuple) -> str:
        """The expression of the polynomial (monomials 1, s_k, s_k*s_l) through every value."""
        hints, step = self.points[0], self.steps
        names = [s.name for s in self.symbols]

        def value_at(**sizes):
            return values[self.index[tuple({**hints, **sizes}.items())]]

        slope = {k: Fraction(value_at(**{k: hints[k] + step[k]}) - values[0], step[k]) for k in names}
        cross = {(k, l): Fraction(value_at(**{k: hints[k] + step[k], l: hints[l] + step[l]}) - values[0]
                                  - slope[k] * step[k] - slope[l] * step[l], step[k] * step[l])
                 for i, k in enumerate(names) for l in names[i + 1:]}
        polynomial = dict(cross)
        for k in names:  # the slope at the hints less what the cross terms contribute there
            polynomial[(k,)] = slope[k] - sum(c * hints[l if m == k else m] for (m, l), c in cross.items() if k in (m, l))
        polynomial[()] = values[0] - sum(c * math.prod(hints[k] for k in monomial)
                                         for monomial, c in polynomial.items() if monomial)
        for j, point in enumerate(self.points):
            predicted = sum(c * math.prod(point[k] for k in monomial) for monomial, c in polynomial.items())
            if predicted != values[j]:
                self._refuse(path, values, lambda part, _: f"{part} changes as no polynomial of {', '.join(names)} "
                                                           f"with the terms 1, {_terms(names)} does (it is {values[j]} there, where the fit to the other "
                                                           f"sizes gives {predicted})", j)
        return _expression(polynomial, names)

    def _statement(self, path: tuple) -> dict:
        return self.base_doc["bound_symbols"][path[1]] if path[:1] == ("bound_symbols",) and len(path) > 1 else {}

    def _refuse(self, path, nodes, detail, j=None, why=CANNOT):
        """Raises the error for the position `path`, naming the first capture that differs there from
        the base's (or the j-th) and, through detail(part, j), how; `why` says what to do."""
        if j is None:
            j = next(i for i, n in enumerate(nodes) if type(n) is not type(nodes[0]) or n != nodes[0])
        if path[:1] == ("bound_symbols",) and len(path) > 1:
            statement = self._statement(path)
            what, inner = f"statement {path[1]} ({statement['symbol']} at {statement['source']})", path[2:]
        elif path[:1] == ("inputs",) and len(path) > 1:
            what, inner = f"input {self.base_doc['inputs'][path[1]]['name']}", path[2:]
        elif path[:1] == ("output",):
            what, inner = "the output", path[1:]
        elif path == ("bound_symbols",):
            what, inner = "the list of statements", ()
        else:
            what, inner = f"the trace's {path[0]}", path[1:]
        hints = ", ".join(str(self.points[0][s.name]) for s in self.symbols if self.points[j][s.name] != s.hint)
        raise CaptureError(f"{what} is not the same at {_sizes_text(self.symbols, self.points[j])} as at {hints}: "
                           f"{detail(_part(inner), j)}; {why}")


def _part(inner: tuple) -> str:
    """Where in a statement, input or output: "its argument 2", "its argument dim=", "its output's shape"."""
    if not inner:
        return "it"
    head = inner[0]
    if head == "args" and len(inner) > 1:
        return f"its argument {inner[1]}"
    if head == "kwargs" and len(inner) > 1:
        return f"its argument {inner[1]}="
    if "shape" in inner:
        return "its output's shape" if head == "output" else "its shape"
    return {"output": "its output", "tensor": "its tensor", "source": "its source line"}.get(head, f"its {head}")


def _terms(names: list[str]) -> str:
    """The monomials a fit may use besides the constant: "s0" or "s0, s1, s0*s1"."""
    return ", ".join(names + [f"{k}*{l}" for i, k in enumerate(names) for l in names[i + 1:]])


def _shown(value) -> str:
    text = json.dumps(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _expression(polynomial: dict, names: list[str]) -> str:
    """The polynomial (monomial -> Fraction) in the grammar of size expressions: monomials of higher
    degree first, then in the symbols' order, the constant last; (SUM)/D over a common denominator."""
    denominator = math.lcm(*(c.denominator for c in polynomial.values()))
    order = {name: i for i, name in enumerate(names)}
    terms = []
    for monomial in sorted((m for m, c in polynomial.items() if c), key=lambda m: (-len(m), [order[k] for k in m])):
        coefficient = int(polynomial[monomial] * denominator)
        magnitude = abs(coefficient)
        text = "*".join(([str(magnitude)] if magnitude != 1 or not monomial else []) + list(monomial))
        if terms:
            terms.append(f" {'-' if coefficient < 0 else '+'} {text}")
        else:
            terms.append(("-" if coefficient < 0 else "") + text)
    total = "".join(terms)
    return total if denominator == 1 else f"({total})/{denominator}"
