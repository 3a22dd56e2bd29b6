# Constructed by Delete Last Used
import torch
from torch import Tensor
from thunder.executors.torchex import no_autocast

@torch.no_grad()
@no_autocast
def bar(a, b):
  # a: "cpu f32[2, 2]"
  # b: "cpu f32[2, 2]"
  t1 = Tensor.contiguous(a)  # t1: "cpu f32[2, 2]"
    # t1 = ltorch.contiguous(a)  # t1: "cpu f32[2, 2]"
      # t1 = prims.stride_order(a, (1, 0))  # t1: "cpu f32[2, 2]"
  del a
  t2 = Tensor.contiguous(b)  # t2: "cpu f32[2, 2]"
    # t2 = ltorch.contiguous(b)  # t2: "cpu f32[2, 2]"
      # t2 = prims.stride_order(b, (1, 0))  # t2: "cpu f32[2, 2]"
  del b
  (t0, _) = multimul(t1, t2, 0, 0)
    # t0 = ltorch.mul(t1, t2)  # t0: "cpu f32[2, 2]"
      # t0 = prims.mul(t1, t2)  # t0: "cpu f32[2, 2]"
  del t1, t2
  return t0
