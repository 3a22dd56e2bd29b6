# Constructed by Delete Last Used
import torch
from thunder.executors.torchex import no_autocast

@torch.no_grad()
@no_autocast
def computation(x):
  # x: "cpu f32[4, 64]"
  (t8,) = fuser_0(x)
    # t0 = prims.amax(x, (1,))  # t0: "cpu f32[4]"
    # t1 = prims.broadcast_in_dim(t0, [4, 1], (0,))  # t1: "cpu f32[4, 1]"
    # t2 = prims.broadcast_in_dim(t1, [4, 64], (0, 1))  # t2: "cpu f32[4, 64]"
    # t3 = prims.sub(x, t2)  # t3: "cpu f32[4, 64]"
    # t4 = prims.exp(t3)  # t4: "cpu f32[4, 64]"
    # t5 = prims.sum(t4, (1,))  # t5: "cpu f32[4]"
    # t6 = prims.broadcast_in_dim(t5, [4, 1], (0,))  # t6: "cpu f32[4, 1]"
    # t7 = prims.broadcast_in_dim(t6, [4, 64], (0, 1))  # t7: "cpu f32[4, 64]"
    # t8 = prims.div(t4, t7)  # t8: "cpu f32[4, 64]"
  del x
  return t8
