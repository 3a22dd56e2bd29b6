# Constructed by Delete Last Used
import thunder.executors.torchex as torchex
import torch
from torch import Tensor
from thunder.executors.torchex import no_autocast

@torch.no_grad()
@no_autocast
def input_modified(x, y):
  # x: "cpu f32[3, 4]"
  # y: "cpu f32[3, 4]"
  (t0,) = fuser_0(x)
    # t0 = prims.add(x, 1.5)  # t0: "cpu f32[3, 4]"
  t2 = Tensor.__getitem__(y, (slice(None,None,None), 0))  # t2: "cpu f32[3]"
    # t2 = ltorch.getitem(y, (slice(None,None,None), 0))  # t2: "cpu f32[3]"
      # t1 = prims.slice_prim(y, [0, 0], [3, 1], [1, 1])  # t1: "cpu f32[3, 1]"
      # t2 = prims.squeeze(t1, (1,))  # t2: "cpu f32[3]"
  t7 = torchex.setitem(t0, (slice(None,None,None), 1), t2)  # t7: "cpu f32[3, 4]"
    # t7 = ltorch.setitem(t0, (slice(None,None,None), 1), t2)  # t7: "cpu f32[3, 4]"
      # t10 = ltorch.reshape(t2, (3, 1))  # t10: "cpu f32[3, 1]"
        # t10 = prims.reshape(t2, (3, 1))  # t10: "cpu f32[3, 1]"
      # t11 = prims.pad(t10, 0, [(0, 0, 0), (1, 2, 0)])  # t11: "cpu f32[3, 4]"
      # t12 = ltorch.full((3, 1), True, device=devices.Device("cpu"), dtype=dtypes.bool8)  # t12: "cpu b8[3, 1]"
        # t12 = prims.full((3, 1), True, device=devices.Device("cpu"), dtype=dtypes.bool8)  # t12: "cpu b8[3, 1]"
      # t13 = prims.pad(t12, False, [(0, 0, 0), (1, 2, 0)])  # t13: "cpu b8[3, 4]"
      # t7 = ltorch.where(t13, t11, t0)  # t7: "cpu f32[3, 4]"
        # t7 = prims.where(t13, t11, t0)  # t7: "cpu f32[3, 4]"
  del t0, t2
  (t8,) = fuser_1(t7, y)
    # t8 = prims.mul(t7, y)  # t8: "cpu f32[3, 4]"
  del y
  torchex.copy_(t7, x)
    # prims.copy_(t7, x)
  del t7, x
  return t8
