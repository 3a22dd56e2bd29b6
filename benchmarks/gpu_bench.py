"""The GPU benchmark (issue 44): one command that, on a GPU machine, checks and times thundercc
against eager PyTorch and torch.compile on the same GPU, and writes one summary file.

  correctness  resnet50, vit_b_16, a 2-block GPT-2 stack and a LLaMA block (benchmarks/gpu_programs.py),
               inference and a training step, float32 and bfloat16, each captured on the device
               (--device), compiled and run: outputs and gradients against float64 autograd's on
               the device, from the same (rounded) parameters and inputs. Each tensor's error
               (its largest difference over the reference's largest magnitude) must be within the
               dtype's tolerance or twice eager's own error in that dtype: a batch norm's backward
               over few values per channel loses 1e-2 in float32 and half its value in bfloat16 (the
               dry run's resnet18 step: eager's float32 gradients 7e-3 off float64's, thundercc's
               1e-5; in bfloat16 both 0.5);
  speed        the cases the issue's goals name, timed interleaved (each round runs every side
               once): thundercc run, eager, and torch.compile (Inductor, default and
               mode="max-autotune-no-cudagraphs"), medians and ratios;
  bandwidth    the GELU, softmax, layer_norm and rms_norm regions on 64 MB: bytes read and written
               over the plan's time, against a device-to-device copy's bandwidth measured the same way;
  graphs       the example mlp's training step (traces/mlp.json moved to the device) with and without
               `run --cuda-graphs`, its outputs checked against the committed ones, and the graph's
               replay against as many empty kernels' launches (issue 44: within 1.2x). First: it
               takes seconds. On a CPU (the dry run), --cuda-graphs must refuse the plan.
  epilogue     the same step's fc1 and ReLU as one cuBLASLt call (docs/executors.md, cuBLASLt
               epilogues): the choice the runtime measures in a fresh kernel cache, and the outputs
               with each choice forced (THUNDERCC_LINEAR_EPILOGUE) against the committed ones. On a
               CPU no pair qualifies, and nothing may be measured.
  nccl         where nvidia-smi lists 2 GPUs or more: the step under --distributed ddp on 2 ranks,
               a GPU each, over NCCL, every rank given the whole batch: gradients against the
               single-GPU plan's. Skipped, saying so, elsewhere.

    python3 benchmarks/gpu_bench.py --thundercc build-gpu/thundercc --out build-gpu/bench [--device cuda]
    python3 benchmarks/gpu_bench.py --device cpu --small --out DIR     the dry run: the benchmark itself,
                                                                       checked on a CPU (tests run it)

Prints each line as it goes and writes DIR/summary.txt; exits 1 when a correctness check failed.
Asserts nothing about the figures."""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
MODELS = ["resnet50", "vit_b_16", "gpt2_stack", "llama_block"]
REGIONS = ["gelu", "softmax", "layer_norm", "rms_norm"]
# The speed cases: the goals (GPT-2 step <= 0.8x eager and <= 1.0x torch.compile; resnet50
# inference <= 1.0x torch.compile), in both dtypes.
TIMED = [("gpt2_stack", "training"), ("resnet50", "inference")]
# Errors relative to float64's scale that pass whatever eager's are: float32 convolutions run on
# TF32 by default on the GPU (cuDNN, as eager's), and bfloat16 keeps 8 bits of mantissa.
TOLERANCE = {"float32": 1e-2, "bfloat16": 5e-2}


def case_env(dtype, mode, small):
    """What gpu_programs.py reads to make a case; THUNDERCC for the front end, which asks the CLI its ops."""
    return {**os.environ, "PYTHONPATH": str(REPO), "GPU_BENCH_DTYPE": dtype, "GPU_BENCH_MODE": mode,
            "GPU_BENCH_SMALL": "1" if small else "0"}


def peer(kind, program, device, env, rounds, work=""):
    """eager or torch.compile's median step (ms) in a fresh process, or None where this PyTorch has
    no torch.compile; kind "reference": the float64 files written into work (0.0), None when that failed."""
    out = subprocess.run([sys.executable, __file__, "--peer", kind, program, device, str(rounds), str(work)], env=env,
                         capture_output=True, text=True, timeout=1200)
    if out.returncode:
        if kind == "reference":
            print(out.stderr[-2000:], file=sys.stderr)
            return None
        raise RuntimeError(f"{kind} failed:\n{out.stderr[-2000:]}")
    value = out.stdout.split()[-1]
    return None if value == "none" else float(value)


def save_reference(program, device, work):
    """Runs in a peer process: the case's program (its dtype's parameters and inputs) in float64 on
    the device; its outputs, and for a training step the gradients of its parameters (ones as the
    outputs' gradient), saved as NAME.reference.pt and NAME.reference_grads.pt."""
    import torch
    sys.path.insert(0, str(REPO / "benchmarks"))
    import gpu_programs
    fn, args = getattr(gpu_programs, f"make_{program}")()
    model = fn.to(device).double() if isinstance(fn, torch.nn.Module) else fn
    args = tuple(a.to(device).double() for a in args)
    params = [p for p in model.parameters() if p.requires_grad] if isinstance(model, torch.nn.Module) else []
    with torch.set_grad_enabled(bool(params)):
        out = model(*args)
    name = Path(work).name
    torch.save([out.detach().cpu()], Path(work) / f"{name}.reference.pt")
    if params:
        grads = torch.autograd.grad(out, params, torch.ones_like(out))
        torch.save(tuple(g.cpu() for g in grads), Path(work) / f"{name}.reference_grads.pt")
    return 0.0


def worst_error(got, reference):
    """The largest over the tensors of |got - reference| / max |reference|."""
    return max(((g.double() - r).abs().max() / r.abs().max().clamp_min(1e-30)).item() for g, r in zip(got, reference, strict=True))


def time_peer(kind, program, device, rounds):
    """Runs in the peer process: the program's step (forward, and backward with ones when its
    parameters require grad), the device synchronized, median of `rounds` after 3 warm-ups."""
    import torch
    sys.path.insert(0, str(REPO / "benchmarks"))
    import gpu_programs
    fn, args = getattr(gpu_programs, f"make_{program}")()
    if isinstance(fn, torch.nn.Module):
        fn = fn.to(device)
    args = tuple(a.to(device) for a in args)
    if kind == "copy":  # a device-to-device copy of the first input: the bandwidth's limit
        out = torch.empty_like(args[0])
        fn, args = (lambda x: out.copy_(x)), args[:1]
    elif kind.startswith("compile"):
        if not hasattr(torch, "compile"):
            return None
        fn = torch.compile(fn, mode=None if kind == "compile" else "max-autotune-no-cudagraphs")
    params = [p for p in fn.parameters() if p.requires_grad] if isinstance(fn, torch.nn.Module) else []

    def step():
        out = fn(*args)
        if params:
            torch.autograd.grad(out, params, torch.ones_like(out))
    sync = torch.cuda.synchronize if device.startswith("cuda") else (lambda: None)
    times = []
    with torch.set_grad_enabled(bool(params)):
        for i in range(rounds + 3):
            sync()
            start = time.perf_counter()
            step()
            sync()
            if i >= 3:
                times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


class Bench:
    def __init__(self, opts):
        self.opts, self.failed, self.started, self.made = opts, False, time.monotonic(), {}
        # The torchvision models need torchvision, which a GPU machine's PyTorch may lack.
        has_torchvision = subprocess.run([sys.executable, "-c", "import torchvision"], capture_output=True).returncode == 0
        self.missing = set() if has_torchvision else {"resnet50", "vit_b_16"}
        self.out = Path(opts.out)
        self.out.mkdir(parents=True, exist_ok=True)
        self.summary = open(self.out / "summary.txt", "w")

    def chosen(self, programs):
        return [p for p in programs if (not self.opts.programs or p in self.opts.programs.split(",")) and p not in self.missing]

    def say(self, line):
        line = f"{line}  [{time.monotonic() - self.started:.0f} s]" if line.startswith("  ") else line
        print(line, flush=True)
        self.summary.write(line + "\n")
        self.summary.flush()

    def sh(self, name, command, env):
        """Runs a command, its output in OUT/NAME.log; its stdout, or None when it failed."""
        result = subprocess.run(list(map(str, command)), env=env, capture_output=True, text=True, timeout=1200)
        (self.out / f"{name}.log").write_text(" ".join(map(str, command)) + "\n" + result.stdout + result.stderr)
        return result.stdout + result.stderr if result.returncode == 0 else None

    def compiled(self, program, mode, dtype):
        """Captures (with eager's outputs and autograd's gradients) and compiles one case, once (the
        speed and bandwidth parts reuse correctness's); the plan's path and its run's arguments,
        or None when capture or compile failed."""
        if (program, mode, dtype) not in self.made:
            self.made[program, mode, dtype] = self.capture_and_compile(program, mode, dtype)
        return self.made[program, mode, dtype]

    def capture_and_compile(self, program, mode, dtype):
        name = f"{program}.{mode}.{dtype}"
        work = self.out / name
        env = case_env(dtype, mode, self.opts.small)
        capture = [sys.executable, "-m", "thundercc_frontend", f"{REPO}/benchmarks/gpu_programs.py:make_{program}",
                   "--device", self.opts.device, "--save-io", "--grad" if mode == "training" else "--inference", "-o", work / f"{name}.json"]
        if self.sh(f"{name}.capture", capture, env) is None or \
                self.sh(f"{name}.compile", [self.opts.thundercc, "compile", work / f"{name}.json", "-o", work], env) is None:
            return None
        return work / f"{name}.plan.json", ["--inputs", work / f"{name}.inputs.pt"]

    def correctness(self):
        import torch
        # float32's cases first, then bfloat16's: what a cut-short run (the script's time limit) keeps matters most.
        cases = [(program, mode, "float32") for program in self.chosen(MODELS + REGIONS)
                 for mode in (("inference", "training") if program in MODELS else ("inference",))]
        cases += [(program, mode, "bfloat16") for program in self.chosen(MODELS) for mode in ("inference", "training")]
        for program, mode, dtype in cases:
            name = f"{program}.{mode}.{dtype}"
            env = case_env(dtype, mode, self.opts.small)
            made = self.compiled(program, mode, dtype)
            ran = made and peer("reference", program, self.opts.device, env, 0, work=made[0].parent) is not None
            if ran:
                plan, inputs = made
                work = plan.parent
                grads = ["--grads-out", work / "ours_grads.pt"] if mode == "training" else []
                ran = self.sh(f"{name}.run", [self.opts.thundercc, "run", plan, *inputs, "--outputs", work / "ours.pt", *grads], env)
            if not ran:
                self.failed = True
                self.say(f"  FAIL {name}: did not capture, compile or run ({self.out}/{name}.*.log)")
                continue
            pairs = [("outputs", "ours.pt", f"{name}.expected.pt", f"{name}.reference.pt")]
            if mode == "training":
                pairs.append(("gradients", "ours_grads.pt", f"{name}.grads.pt", f"{name}.reference_grads.pt"))
            verdicts = []
            for what, ours, eager, reference in pairs:
                reference = torch.load(work / reference)
                mine, theirs = worst_error(torch.load(work / ours), reference), worst_error(torch.load(work / eager), reference)
                good = mine <= max(TOLERANCE[dtype], 2 * theirs)
                self.failed |= not good
                verdicts.append((good, f"{what} {mine:.1e} (eager {theirs:.1e})"))
            self.say(f"  {'PASS' if all(g for g, _ in verdicts) else 'FAIL'} {name}: " + ", ".join(v for _, v in verdicts))

    def ours_ms(self, plan, inputs, env):
        out = self.sh("timing", [self.opts.thundercc, "run", plan, *inputs, "--warmup", "3", "--repeat", str(self.opts.repeat)], env)
        return float(re.search(r"median ([0-9.]+) ms", out).group(1))

    def speed(self):
        for program, mode in TIMED:
            if program not in self.chosen([program]):
                continue
            for dtype in ("float32", "bfloat16"):
                made = self.compiled(program, mode, dtype)
                if not made:
                    self.say(f"  {program} {mode} {dtype}: not timed (capture or compile failed)")
                    continue
                env = case_env(dtype, mode, self.opts.small)
                sides = {"thundercc": lambda: self.ours_ms(*made, env)}
                for kind in ("eager", "compile", "compile-max-autotune"):
                    sides[kind] = lambda kind=kind: peer(kind, program, self.opts.device, env, self.opts.repeat)
                figures = {side: [] for side in sides}
                for _ in range(self.opts.rounds):  # interleaved: each round runs every side once
                    for side, time_once in sides.items():
                        figures[side].append(time_once())
                ours = statistics.median(figures["thundercc"])
                line = f"  {program} {mode} {dtype}: thundercc {ours:.3f} ms"
                for kind in ("eager", "compile", "compile-max-autotune"):
                    if None in figures[kind]:
                        line += f", {kind}: torch.compile is not in this PyTorch"
                        continue
                    theirs = statistics.median(figures[kind])
                    ratios = [a / b for a, b in zip(figures["thundercc"], figures[kind])]
                    line += f", {kind} {theirs:.3f} ms ({ours / theirs:.2f}x, rounds {min(ratios):.2f}-{max(ratios):.2f}x)"
                self.say(line)

    def bandwidth(self):
        env = case_env("float32", "inference", self.opts.small)
        os.environ.update(env)  # gpu_programs.py reads its sizes when imported
        sys.path.insert(0, str(REPO / "benchmarks"))
        import gpu_programs
        for program in self.chosen(REGIONS):
            made = self.compiled(program, "inference", "float32")
            if not made:
                self.say(f"  {program}: not measured (capture or compile failed)")
                continue
            fn, args = getattr(gpu_programs, f"make_{program}")()
            moved = sum(a.numel() * a.element_size() for a in args) + args[0].numel() * args[0].element_size()  # read, and the result written
            ms = statistics.median(self.ours_ms(*made, env) for _ in range(self.opts.rounds))
            copy_ms = statistics.median(peer("copy", program, self.opts.device, env, self.opts.repeat) for _ in range(self.opts.rounds))
            copy_bandwidth = 2 * args[0].numel() * args[0].element_size() / copy_ms / 1e6  # GB/s
            self.say(f"  {program:<10} {moved / 1e6:6.1f} MB moved in {ms:.3f} ms: {moved / ms / 1e6:7.1f} GB/s, "
                     f"{100 * moved / ms / 1e6 / copy_bandwidth:.0f}% of the copy's {copy_bandwidth:.1f} GB/s")

    def graphs(self):
        if not self.chosen(["mlp"]):
            return
        work = self.out / "mlp"
        work.mkdir(exist_ok=True)
        device = "cuda:0" if self.opts.device == "cuda" else self.opts.device  # as the trace spells a device
        (work / "mlp.json").write_text((REPO / "traces" / "mlp.json").read_text().replace('"device": "cpu"', f'"device": "{device}"'))
        env = case_env("float32", "training", self.opts.small)
        run = [self.opts.thundercc, "run", work / "mlp.plan.json", "--inputs", REPO / "traces" / "mlp.inputs.pt",
               "--expect", REPO / "traces" / "mlp.expected.pt", "--warmup", "5", "--repeat", str(5 * self.opts.repeat)]
        if self.sh("mlp.compile", [self.opts.thundercc, "compile", work / "mlp.json", "-o", work], env) is None or \
                (plain := self.sh("mlp.plain", run, env)) is None:
            self.failed = True
            self.say(f"  FAIL mlp step: did not compile or run, or its outputs differ ({self.out}/mlp.*.log)")
            return
        line = f"  mlp step float32: {float(re.search(r'median ([0-9.]+) ms', plain).group(1)):.3f} ms"
        graphed = self.sh("mlp.graphs", [*run, "--cuda-graphs"], env)
        if self.opts.device == "cpu":  # the dry run: refused, saying why
            refused = graphed is None and "no tensor of the plan is on a CUDA device" in (self.out / "mlp.graphs.log").read_text()
            self.failed |= not refused
            self.say(line + (", --cuda-graphs refused on the CPU" if refused else f", FAIL --cuda-graphs was not refused ({self.out}/mlp.graphs.log)"))
            return
        if graphed is None:
            self.failed = True
            self.say(line + f", FAIL --cuda-graphs did not run or its outputs differ ({self.out}/mlp.graphs.log)")
            return
        ms = float(re.search(r"median ([0-9.]+) ms", graphed).group(1))
        nodes, kernels, ratio, floor = re.search(r"CUDA graph: (\d+) nodes, (\d+) kernel launches; its replay's median is ([0-9.]+)x .*\(([0-9.]+) ms\)",
                                                 graphed).groups()
        self.say(line + f", with --cuda-graphs {ms:.3f} ms: a graph of {nodes} nodes, {kernels} kernels; "
                        f"{ratio}x of {kernels} empty kernels' launches ({float(floor):.3f} ms; issue 44: within 1.2x)")

    def mlp_env(self, **extra):
        return {**case_env("float32", "training", self.opts.small), **extra}

    def epilogue(self):
        work = self.out / "mlp"
        if not (work / "mlp.plan.json").exists():
            return self.say("  epilogue: skipped, the mlp step did not compile")
        cache = work / "epilogue_cache"  # fresh, so that the choice is measured here
        run = [self.opts.thundercc, "run", work / "mlp.plan.json", "--inputs", REPO / "traces" / "mlp.inputs.pt",
               "--expect", REPO / "traces" / "mlp.expected.pt", "--warmup", "5", "--repeat", str(5 * self.opts.repeat)]
        measured = self.sh("mlp.epilogue.measured", run, self.mlp_env(THUNDERCC_CACHE_DIR=str(cache)))
        records = [f.read_text() for f in sorted((cache / "linear_epilogue").glob("*")) if f.suffix != ".sha256"] if (cache / "linear_epilogue").is_dir() else []
        times = {}
        for choice in ("fused", "separate"):
            out = self.sh(f"mlp.epilogue.{choice}", run, self.mlp_env(THUNDERCC_LINEAR_EPILOGUE=choice))
            times[choice] = None if out is None else float(re.search(r"median ([0-9.]+) ms", out).group(1))
        if measured is None or None in times.values():
            self.failed = True
            return self.say(f"  FAIL epilogue: a run failed or its outputs differ ({self.out}/mlp.epilogue.*.log)")
        if self.opts.device == "cpu":  # the dry run: nothing qualifies on the CPU
            self.failed |= bool(records)
            return self.say(f"  epilogue: {'no pair on the CPU, nothing measured' if not records else 'FAIL a choice was measured on the CPU'}; "
                            "outputs equal under THUNDERCC_LINEAR_EPILOGUE=fused and =separate")
        forced = f"outputs equal with the single call forced ({times['fused']:.3f} ms) and with the pair ({times['separate']:.3f} ms)"
        if len(records) != 1:
            self.failed = True
            return self.say(f"  FAIL epilogue: {len(records)} choices recorded, 1 expected (fc1 and its ReLU) in {cache}")
        self.say(f"  epilogue: fc1+ReLU measured {records[0].splitlines()[0]}; {forced}")

    def nccl(self):
        listed = self.opts.device == "cuda" and shutil.which("nvidia-smi")
        gpus = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True).stdout.count("GPU ") if listed else 0
        work = self.out / "mlp"
        if gpus < 2 or not (work / "mlp.plan.json").exists():
            return self.say(f"  nccl: skipped, {gpus} GPU(s) listed by nvidia-smi (2 needed)" if gpus < 2 else "  nccl: skipped, the mlp step did not compile")
        env = self.mlp_env(THUNDERCC_DISTRIBUTED_BACKEND="nccl")
        inputs = ["--inputs", REPO / "traces" / "mlp.inputs.pt"]
        if self.sh("mlp.nccl.single", [self.opts.thundercc, "run", work / "mlp.plan.json", *inputs, "--grads-out", work / "grads.pt"], env) is None or \
                self.sh("mlp.nccl.compile", [self.opts.thundercc, "compile", work / "mlp.json", "-o", work / "ddp", "--distributed", "ddp"], env) is None:
            self.failed = True
            return self.say(f"  FAIL nccl: the single-GPU step or the ddp compile failed ({self.out}/mlp.nccl.*.log)")
        ranks = self.sh("mlp.nccl.ranks", [sys.executable, "-m", "torch.distributed.run", "--nproc_per_node", "2", "--no_python", "--master_port", "29537",
                                           Path(self.opts.thundercc).resolve(), "run", work / "ddp" / "mlp.plan.json", *inputs, "--warmup", "3",
                                           "--repeat", str(self.opts.repeat), "--expect-grads", work / "grads.pt", "--rtol", "1e-4", "--atol", "1e-5"], env)
        if ranks is None or ranks.count(" MB over nccl ") != 2:
            self.failed = True
            return self.say(f"  FAIL nccl: the 2 ranks did not both run over NCCL with the single GPU's gradients ({self.out}/mlp.nccl.ranks.log)")
        medians = ", ".join(f"{float(m):.3f}" for m in re.findall(r"median ([0-9.]+) ms", ranks))
        self.say(f"  nccl: 2 ranks on {gpus} GPUs, the ddp step's gradients equal the single GPU's; medians {medians} ms")

    def run(self):
        opts = self.opts
        self.say(f"gpu_bench: device {opts.device}{' (small sizes: a dry run)' if opts.small else ''}, thundercc {opts.thundercc}")
        self.say(subprocess.run([sys.executable, "-c", "import torch; print('torch', torch.__version__, 'cuda', torch.version.cuda, "
                                 "torch.cuda.get_device_name(0) if torch.cuda.is_available() else 'no GPU')"],
                                capture_output=True, text=True).stdout.strip())
        if self.missing:
            self.say(f"torchvision is not installed for {sys.executable}: {', '.join(sorted(self.missing))} left out")
        self.say(f"CUDA graphs (the mlp step, median of {5 * opts.repeat} runs after 5 warm-ups; outputs against the committed ones):")
        self.graphs()
        self.say("cuBLASLt epilogue and NCCL (the same mlp step):")
        self.epilogue()
        self.nccl()
        self.say("correctness (each tensor's largest error over float64's largest magnitude, the worst; eager's beside it):")
        self.correctness()
        self.say("bandwidth of fused regions (float32, bytes read and written over the plan's median time):")
        self.bandwidth()
        self.say(f"speed (median of {opts.rounds} interleaved rounds, each a median of {opts.repeat} runs after 3 warm-ups):")
        self.speed()
        self.say(f"gpu_bench: {'some correctness checks failed' if self.failed else 'every correctness check passed'}")
        return 1 if self.failed else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--thundercc", default=os.environ.get("THUNDERCC", str(REPO / "build" / "thundercc")))
    parser.add_argument("--device", default="cuda")
    parser.add_argument("--out", required=True)
    parser.add_argument("--small", action="store_true", help="sizes a CPU runs in seconds (the benchmark's own check)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--programs", help="only these, comma-separated (default: all)")
    opts = parser.parse_args()
    os.environ["THUNDERCC"] = str(Path(opts.thundercc).resolve())
    return Bench(opts).run()


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--peer":
        kind, program, device, rounds, work = sys.argv[2:7]
        figure = save_reference(program, device, work) if kind == "reference" else time_peer(kind, program, device, int(rounds))
        print("none" if figure is None else f"{figure:.4f}")
    else:
        sys.exit(main())
