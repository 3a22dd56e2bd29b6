import thunder.torch as ltorch
import torch
from thunder.executors.torchex import no_autocast

@torch.no_grad()
@no_autocast
def fun(a, b):
  # a: "cpu f32[2, 2]"
  # b: "cpu f32[2, 1]"
  t_mul_0 = ltorch.mul(b, a)  # t_mul_0: "cpu f32[2, 2]"
    # t_mul_0_0 = prims.broadcast_in_dim(b, [2, 2], (0, 1))  # t_mul_0_0: "cpu f32[2, 2]"
    # t_mul_0 = prims.mul(t_mul_0_0, a)  # t_mul_0: "cpu f32[2, 2]"
  t_add_0 = ltorch.add(a, t_mul_0, alpha=1)  # t_add_0: "cpu f32[2, 2]"
    # t_add_0 = prims.add(a, t_mul_0)  # t_add_0: "cpu f32[2, 2]"
  return t_add_0
