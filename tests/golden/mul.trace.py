# Constructed by Delete Last Used
import torch
from thunder.executors.torchex import no_autocast

@torch.no_grad()
@no_autocast
def bar(a, b):
  # a: "cpu f32[2, 2]"
  # b: "cpu f32[2, 2]"
  t0 = torch.mul(a, b)  # t0: "cpu f32[2, 2]"
    # t0 = ltorch.mul(a, b)  # t0: "cpu f32[2, 2]"
      # t0 = prims.mul(a, b)  # t0: "cpu f32[2, 2]"
  del a, b
  return t0
