"""Packed sequences: pack_padded_sequence, the recurrent layers on the packed data and
pad_packed_sequence, with the lengths specialized to the values seen at capture and guarded.
Training steps equal to eager's outputs and float64 autograd's gradients; other lengths at run
time are a guard failure naming the call, never a wrong result."""
import pytest
import torch
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

from conftest import capture, compile_and_run


class Tagger(torch.nn.Module):
    """A recurrent tagger over padded batches of sequences of different lengths."""

    def __init__(self, layer, **options):
        super().__init__()
        self.rnn = layer(5, 6, **options)
        features = (options.get("proj_size") or 6) * (2 if options.get("bidirectional") else 1)
        self.out = torch.nn.Linear(features, 3)

    def forward(self, x, lengths):
        packed = pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False)
        y, h = self.rnn(packed)
        y, lengths = pad_packed_sequence(y, batch_first=True, total_length=x.shape[1])
        return self.out(y), lengths, h


MODELS = {
    "lstm": (torch.nn.LSTM, {}, [4, 7, 2]),
    "lstm_2_layers_bidirectional": (torch.nn.LSTM, {"num_layers": 2, "bidirectional": True}, [4, 7, 2]),
    "lstm_projected": (torch.nn.LSTM, {"proj_size": 4}, [3, 6]),
    "gru_bidirectional": (torch.nn.GRU, {"bidirectional": True}, [5, 5, 1, 3]),
    "rnn_relu": (torch.nn.RNN, {"nonlinearity": "relu"}, [6, 3]),
}


def tagger(name):
    """The maker of a model and its inputs, from seed 0 (compile_and_run builds it again in float64)."""
    layer, options, lengths = MODELS[name]

    def make(dropout):
        torch.manual_seed(0)
        return Tagger(layer, **options), (torch.randn(len(lengths), max(lengths) + 1, 5), torch.tensor(lengths))
    return make


@pytest.mark.parametrize("name", MODELS)
def test_training_step_matches_eager(name, tmp_path, thundercc):
    make = tagger(name)
    model, args = make(0.0)
    compile_and_run(tmp_path, thundercc, model.train(), args, compare=make)


def test_other_lengths_are_a_guard_failure(tmp_path, thundercc):
    model, (x, lengths) = tagger("gru_bidirectional")(0.0)
    captured = capture(model, x, lengths)
    captured.save(tmp_path / "m.json")
    thundercc("compile", tmp_path / "m.json", "-o", tmp_path)
    inputs = [t.detach() for t in captured.input_values]
    inputs[1] = torch.tensor([5, 4, 1, 3])
    torch.save(tuple(inputs), tmp_path / "other.pt")
    result = thundercc("run", tmp_path / "m.plan.json", "--inputs", tmp_path / "other.pt", check=False)
    assert result.returncode == 1
    assert "guard failed: torch._pack_padded_sequence" in result.stderr
    assert "gave [5, 5, 3, 1] when the program was captured" in result.stderr and "it is [5, 4, 3, 1] now" in result.stderr
