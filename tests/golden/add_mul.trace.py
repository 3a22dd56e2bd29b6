# Constructed by Delete Last Used
import torch
from thunder.executors.torchex import no_autocast

@torch.no_grad()
@no_autocast
def fun(a, b):
  # a: "cpu f32[2, 2]"
  # b: "cpu f32[2, 1]"
  t1 = torch.mul(b, a)  # t1: "cpu f32[2, 2]"
    # t1 = ltorch.mul(b, a)  # t1: "cpu f32[2, 2]"
      # t0 = prims.broadcast_in_dim(b, [2, 2], (0, 1))  # t0: "cpu f32[2, 2]"
      # t1 = prims.mul(t0, a)  # t1: "cpu f32[2, 2]"
  del b
  t2 = torch.add(a, t1)  # t2: "cpu f32[2, 2]"
    # t2 = ltorch.add(a, t1, alpha=1)  # t2: "cpu f32[2, 2]"
      # t2 = prims.add(a, t1)  # t2: "cpu f32[2, 2]"
  del a, t1
  return t2
