# Constructed by Delete Last Used
import torch
from thunder.executors.torchex import no_autocast

@torch.no_grad()
@no_autocast
def computation(a, b):
  # a: "cpu f32[2, 2]"
  # b: "cpu f32[2, 2]"
  t5 = torch.full((2, 2), 1.0, device=torch.device("cpu"), dtype=torch.float32)  # t5: "cpu f32[2, 2]"
    # t5 = ltorch.full((2, 2), 1.0, device=torch.device("cpu"), dtype=torch.float32)  # t5: "cpu f32[2, 2]"
      # t5 = prims.full((2, 2), 1.0, device=devices.Device("cpu"), dtype=dtypes.float32)  # t5: "cpu f32[2, 2]"
  (t3, t4) = multimul(b, t5, a, t5)
    # t3 = ltorch.mul(b, t5)  # t3: "cpu f32[2, 2]"
      # t3 = prims.mul(b, t5)  # t3: "cpu f32[2, 2]"
    # t4 = ltorch.mul(a, t5)  # t4: "cpu f32[2, 2]"
      # t4 = prims.mul(a, t5)  # t4: "cpu f32[2, 2]"
  del b, t5, a
  return [t3, t4]
