# Constructed by Delete Last Used
import torch
from thunder.executors.torchex import no_autocast

@torch.no_grad()
@no_autocast
def loss(logits, labels):
  # logits: "cpu f64[64, 1000]"
  # labels: "cpu i64[64]"
  (t25, t26) = xentropy_forward(logits, labels, None, None, -1, None, 'none', 0.0)
  t27 = torch.sum(t25, None, False)  # t27: "cpu f64[]"
    # t27 = ltorch.sum(t25, None, False, dtype=None)  # t27: "cpu f64[]"
      # t27 = prims.sum(t25, (0,))  # t27: "cpu f64[]"
  del t25
  t28 = torch.ne(labels, -1)  # t28: "cpu b8[64]"
    # t28 = ltorch.ne(labels, -1)  # t28: "cpu b8[64]"
      # t28 = prims.ne(labels, -1)  # t28: "cpu b8[64]"
  t30 = torch.sum(t28, None, False)  # t30: "cpu i64[]"
    # t30 = ltorch.sum(t28, None, False, dtype=None)  # t30: "cpu i64[]"
      # t29 = prims.convert_element_type(t28, dtypes.int64)  # t29: "cpu i64[64]"
      # t30 = prims.sum(t29, (0,))  # t30: "cpu i64[]"
  del t28
  t24 = torch.true_divide(t27, t30)  # t24: "cpu f64[]"
    # t24 = ltorch.true_divide(t27, t30)  # t24: "cpu f64[]"
      # t31 = prims.convert_element_type(t30, dtypes.float64)  # t31: "cpu f64[]"
      # t24 = prims.div(t27, t31)  # t24: "cpu f64[]"
  del t27
  return (t24, (logits, labels, t26, t30))
