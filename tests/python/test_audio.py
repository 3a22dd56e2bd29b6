"""Speech and audio models of torchaudio 0.13 (Debian's python3-torchaudio), in small configurations,
spectrogram front ends (mel, MFCC, a complex spectral filter, HDemucs) among them,
with random weights: captured, compiled and run as training steps, outputs and gradients equal to
eager's (the gradients with autograd's in float64: PyTorch 1.13's own float32 backward of
wav2vec2's group-normalized feature extractor gives 2.40 for an element where float64 gives
29.33, as thundercc does). Dropout makes a training step's values differ from eager's, so those
models are compared with their dropout off and run once more with it on."""

import pytest
import torch

from conftest import compile_and_run

torchaudio = pytest.importorskip("torchaudio")
M = torchaudio.models


def conformer(dropout):
    return (M.Conformer(input_dim=16, num_heads=2, ffn_dim=32, num_layers=2, depthwise_conv_kernel_size=3, dropout=dropout),
            (torch.randn(2, 12, 16), torch.tensor([12, 9])))


def wav2letter(dropout):
    return M.Wav2Letter(num_classes=10, input_type="mfcc", num_features=13), (torch.randn(2, 13, 50),)


def conv_tasnet(dropout):
    return (M.ConvTasNet(num_sources=2, enc_kernel_size=8, enc_num_feats=16, msk_kernel_size=3, msk_num_feats=8,
                         msk_num_hidden_feats=16, msk_num_layers=2, msk_num_stacks=1), (torch.randn(1, 1, 400),))


def deepspeech(dropout):
    return M.DeepSpeech(n_feature=20, n_hidden=32, n_class=10, dropout=dropout), (torch.randn(2, 1, 15, 20),)


def emformer(dropout):
    return (M.Emformer(input_dim=16, num_heads=2, ffn_dim=32, num_layers=2, segment_length=4, right_context_length=1,
                       dropout=dropout), (torch.randn(2, 9, 16), torch.tensor([9, 7])))


def wav2vec2(dropout):
    model = M.wav2vec2_model(
        extractor_mode="group_norm", extractor_conv_layer_config=[(8, 10, 5), (8, 3, 2)], extractor_conv_bias=False,
        encoder_embed_dim=16, encoder_projection_dropout=dropout, encoder_pos_conv_kernel=8, encoder_pos_conv_groups=2,
        encoder_num_layers=2, encoder_num_heads=2, encoder_attention_dropout=dropout, encoder_ff_interm_features=32,
        encoder_ff_interm_dropout=dropout, encoder_dropout=dropout, encoder_layer_norm_first=False, encoder_layer_drop=0.0,
        aux_num_out=5)
    return model, (torch.randn(2, 400),)


# Spectrogram front ends: the short-time Fourier transform's complex values, read by abs (a mel
# spectrogram, MFCCs) or by view_as_real and inverted by istft (HDemucs separates sources in both
# the waveform and the spectrogram).
T = torchaudio.transforms


def mel_wav2letter(dropout):
    return (torch.nn.Sequential(T.MelSpectrogram(sample_rate=8000, n_fft=64, hop_length=16, n_mels=16), T.AmplitudeToDB(top_db=80.0),
                                M.Wav2Letter(num_classes=10, input_type="mfcc", num_features=16)), (torch.randn(2, 800),))


class MfccDeepSpeech(torch.nn.Module):
    def __init__(self, dropout):
        super().__init__()
        self.mfcc = T.MFCC(sample_rate=8000, n_mfcc=12, melkwargs=dict(n_fft=64, hop_length=16, n_mels=20))
        self.deepspeech = M.DeepSpeech(n_feature=12, n_hidden=16, n_class=5, dropout=dropout)

    def forward(self, waveform):
        return self.deepspeech(self.mfcc(waveform).transpose(-1, -2))


def mfcc_deepspeech(dropout):
    return MfccDeepSpeech(dropout), (torch.randn(2, 1, 600),)


def hdemucs(dropout):
    return (M.HDemucs(sources=["voice", "rest"], audio_channels=1, channels=4, growth=2, nfft=64, depth=2, freq_emb=0.0),
            (torch.randn(1, 1, 1000),))


class SpectralFilter(torch.nn.Module):
    """A learned filter applied to the complex spectrogram, resynthesized by the inverse transform."""

    def __init__(self, dropout):
        super().__init__()
        self.spectrogram = T.Spectrogram(n_fft=32, hop_length=8, power=None)
        self.gain = torch.nn.Parameter(torch.rand(17, 1) + 0.5)
        self.inverse = T.InverseSpectrogram(n_fft=32, hop_length=8)

    def forward(self, waveform):
        return self.inverse(self.spectrogram(waveform) * self.gain, waveform.shape[-1])


def spectral_filter(dropout):
    return SpectralFilter(dropout), (torch.randn(2, 300),)


class CtcRecognizer(torch.nn.Module):
    """A log-mel Wav2Letter trained with CTC on utterances of different lengths."""

    def __init__(self, dropout):
        super().__init__()
        self.features = T.MelSpectrogram(sample_rate=8000, n_fft=64, hop_length=32, n_mels=16)
        self.acoustic = M.Wav2Letter(num_classes=6, input_type="mfcc", num_features=16)

    def forward(self, waveform, targets, frames, target_lengths):
        log_probs = self.acoustic(self.features(waveform).clamp(min=1e-5).log()).permute(2, 0, 1)  # (T, N, C)
        return torch.nn.functional.ctc_loss(log_probs, targets, frames, target_lengths, zero_infinity=True)


def ctc_recognizer(dropout):
    return CtcRecognizer(dropout), (torch.randn(2, 1600), torch.tensor([[1, 2, 3, 2], [4, 4, 0, 0]]), torch.tensor([26, 20]),
                                    torch.tensor([4, 2]))


MODELS = [conformer, wav2letter, conv_tasnet, deepspeech, emformer, wav2vec2, mel_wav2letter, mfcc_deepspeech, hdemucs, spectral_filter,
          ctc_recognizer]


@pytest.mark.parametrize("make", MODELS, ids=[m.__name__ for m in MODELS])
def test_training_step_matches_eager(make, tmp_path, thundercc):
    torch.manual_seed(0)
    model, args = make(0.0)
    compile_and_run(tmp_path, thundercc, model.train(), args, compare=make)


@pytest.mark.parametrize("make", [conformer, deepspeech, wav2vec2], ids=["conformer", "deepspeech", "wav2vec2"])
def test_training_step_with_dropout_runs(make, tmp_path, thundercc):
    torch.manual_seed(0)
    model, args = make(0.2)
    grads = compile_and_run(tmp_path, thundercc, model.train(), args)
    assert "prims.uniform" in (tmp_path / "m.forward.trace.py").read_text()
    assert all(g is None or torch.isfinite(g).all() for g in grads)
