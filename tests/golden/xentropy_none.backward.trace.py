# Constructed by Delete Last Used
import torch
from thunder.executors.torchex import no_autocast

@torch.no_grad()
@no_autocast
def backward_fn(saved_for_backward, cotangents):
  # saved_for_backward: "Collection"
  # logits: "cpu f64[64, 1000]"
  # labels: "cpu i64[64]"
  # t23: "cpu f64[64]"
  logits, labels, t23, = saved_for_backward
  # cotangents: "Collection"
  # t26: "cpu f64[64]"
  t26, = cotangents
  t25 = xentropy_backward(t26, logits, labels, t23, 0.0, -1)  # t25: "cpu f64[64, 1000]"
  del t26, logits, labels, t23
  return (t25, None)
