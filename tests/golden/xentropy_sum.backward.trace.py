# Constructed by Delete Last Used
import torch
from torch import Tensor
from thunder.executors.torchex import no_autocast

@torch.no_grad()
@no_autocast
def backward_fn(saved_for_backward, cotangents):
  # saved_for_backward: "Collection"
  # logits: "cpu f64[64, 1000]"
  # labels: "cpu i64[64]"
  # t24: "cpu f64[64]"
  logits, labels, t24, = saved_for_backward
  # cotangents: "Collection"
  # t29: "cpu f64[]"
  t29, = cotangents
  t27 = Tensor.expand(t29, (64,))  # t27: "cpu f64[64]"
    # t27 = ltorch.expand(t29, (64,))  # t27: "cpu f64[64]"
      # t27 = prims.broadcast_in_dim(t29, [64], ())  # t27: "cpu f64[64]"
  del t29
  t28 = xentropy_backward(t27, logits, labels, t24, 0.0, -1)  # t28: "cpu f64[64, 1000]"
  del t27, logits, labels, t24
  return (t28, None)
