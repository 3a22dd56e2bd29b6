"""examples/train_mlp.cpp: 200 SGD steps on the bundled MLP through the compiled training step
(runtime::Plan), against the same steps in PyTorch eager with autograd."""
import os
import subprocess
import sys

import torch

from conftest import REPO

sys.path.insert(0, str(REPO / "examples" / "models"))
import mlp  # noqa: E402

STEPS, LR = 200, 0.1


def test_train_mlp_matches_eager_sgd(tmp_path, thundercc):
    thundercc("compile", REPO / "traces" / "mlp.json", "-o", tmp_path)
    result = subprocess.run([os.environ["THUNDERCC_TRAIN_MLP"], tmp_path / "mlp.plan.json", REPO / "traces" / "mlp.inputs.pt",
                             str(STEPS), str(LR)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    ours = {int(line.split()[1]): float(line.split()[3]) for line in result.stdout.splitlines()}

    model, (x, labels) = mlp.make()
    # The parameters the plan was given: the saved inputs after x and labels, in the trace's order.
    saved = torch.load(REPO / "traces" / "mlp.inputs.pt")
    params = list(model.parameters())
    with torch.no_grad():
        for p, value in zip(params, saved[2:]):
            p.copy_(value)
    eager = {}
    for step in range(1, STEPS + 1):
        loss = model(saved[0], saved[1])
        grads = torch.autograd.grad(loss, params)
        with torch.no_grad():
            for p, g in zip(params, grads):
                p.sub_(LR * g)
        if step in ours:
            eager[step] = loss.item()
    assert sorted(ours) == sorted(eager) and STEPS in ours
    for step, value in ours.items():
        assert abs(value - eager[step]) <= 1e-4 * max(1.0, abs(eager[step])), (step, value, eager[step])
    assert ours[STEPS] < 0.5 * ours[1], "the loss falls"
