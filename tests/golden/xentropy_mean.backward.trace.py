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
  # t26: "cpu f64[64]"
  # t30: "cpu i64[]"
  logits, labels, t26, t30, = saved_for_backward
  # cotangents: "Collection"
  # t38: "cpu f64[]"
  t38, = cotangents
  t35 = torch.true_divide(t38, t30)  # t35: "cpu f64[]"
    # t35 = ltorch.true_divide(t38, t30)  # t35: "cpu f64[]"
      # t34 = prims.convert_element_type(t30, dtypes.float64)  # t34: "cpu f64[]"
      # t35 = prims.div(t38, t34)  # t35: "cpu f64[]"
  del t38, t30
  t36 = Tensor.expand(t35, (64,))  # t36: "cpu f64[64]"
    # t36 = ltorch.expand(t35, (64,))  # t36: "cpu f64[64]"
      # t36 = prims.broadcast_in_dim(t35, [64], ())  # t36: "cpu f64[64]"
  del t35
  t37 = xentropy_backward(t36, logits, labels, t26, 0.0, -1)  # t37: "cpu f64[64, 1000]"
  del t36, logits, labels, t26
  return (t37, None)
