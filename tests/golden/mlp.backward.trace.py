# Constructed by Delete Last Used
import thunder.executors.torchex as torchex
import torch
from thunder.executors.torchex import no_autocast

@torch.no_grad()
@no_autocast
def backward_fn(saved_for_backward, cotangents):
  # saved_for_backward: "Collection"
  # x: "cpu f32[16, 32]"
  # labels: "cpu i64[16]"
  # t_fc2_weight: "cpu f32[10, 64]"
  # t2: "cpu f32[16, 64]"
  # t3: "cpu f32[16, 10]"
  x, labels, t_fc2_weight, t2, t3, = saved_for_backward
  # cotangents: "Collection"
  # t88: "cpu f32[]"
  t88, = cotangents
  (t16, t17, t19) = fuser_1(t3, labels)
    # t49 = prims.amax(t3, (1,))  # t49: "cpu f32[16]"
    # t50 = prims.broadcast_in_dim(t49, [16, 1], (0,))  # t50: "cpu f32[16, 1]"
    # t51 = prims.isfinite(t50)  # t51: "cpu b8[16, 1]"
    # t52 = prims.where(t51, t50, 0.0)  # t52: "cpu f32[16, 1]"
    # t53 = prims.broadcast_in_dim(t52, [16, 10], (0, 1))  # t53: "cpu f32[16, 10]"
    # t54 = prims.sub(t3, t53)  # t54: "cpu f32[16, 10]"
    # t55 = prims.exp(t54)  # t55: "cpu f32[16, 10]"
    # t56 = prims.sum(t55, (1,))  # t56: "cpu f32[16]"
    # t57 = prims.broadcast_in_dim(t56, [16, 1], (0,))  # t57: "cpu f32[16, 1]"
    # t58 = prims.log(t57)  # t58: "cpu f32[16, 1]"
    # t59 = prims.add(t58, t52)  # t59: "cpu f32[16, 1]"
    # t60 = prims.broadcast_in_dim(t59, [16, 10], (0, 1))  # t60: "cpu f32[16, 10]"
    # t16 = prims.sub(t3, t60)  # t16: "cpu f32[16, 10]"
    # t17 = prims.ne(labels, -100)  # t17: "cpu b8[16]"
    # t18 = prims.where(t17, labels, 0)  # t18: "cpu i64[16]"
    # t19 = prims.broadcast_in_dim(t18, [16, 1], (0,))  # t19: "cpu i64[16, 1]"
  del t3, labels
  t20 = torchex.take_along_axis(t16, t19, 1)  # t20: "cpu f32[16, 1]"
    # t20 = prims.take_along_axis(t16, t19, 1)  # t20: "cpu f32[16, 1]"
  t21 = torch.squeeze(t20, (1,))  # t21: "cpu f32[16]"
    # t21 = ltorch.squeeze(t20, (1,))  # t21: "cpu f32[16]"
      # t21 = prims.squeeze(t20, (1,))  # t21: "cpu f32[16]"
  del t20
  (t22,) = fuser_2(t21)
    # t22 = prims.neg(t21)  # t22: "cpu f32[16]"
  del t21
  t23 = torch.full_like(t22, 1.0)  # t23: "cpu f32[16]"
    # t23 = ltorch.full_like(t22, 1.0, device=None, dtype=None)  # t23: "cpu f32[16]"
      # t23 = prims.full((16,), 1.0, device=devices.Device("cpu"), dtype=dtypes.float32)  # t23: "cpu f32[16]"
  del t22
  (t78,) = fuser_3(t17, t23, t88)
    # t25 = prims.where(t17, t23, 0.0)  # t25: "cpu f32[16]"
    # t27 = prims.sum(t25, (0,))  # t27: "cpu f32[]"
    # t87 = prims.div(t88, t27)  # t87: "cpu f32[]"
    # t84 = prims.broadcast_in_dim(t87, [16], ())  # t84: "cpu f32[16]"
    # t81 = prims.where(t17, t84, 0.0)  # t81: "cpu f32[16]"
    # t78 = prims.neg(t81)  # t78: "cpu f32[16]"
  del t17, t23, t88
  t75 = torchex.reshape(t78, (16, 1))  # t75: "cpu f32[16, 1]"
    # t75 = prims.reshape(t78, (16, 1))  # t75: "cpu f32[16, 1]"
  del t78
  t71 = torch.zeros_like(t16)  # t71: "cpu f32[16, 10]"
    # t71 = ltorch.zeros_like(t16, device=None, dtype=None)  # t71: "cpu f32[16, 10]"
      # t71 = prims.full((16, 10), 0.0, device=devices.Device("cpu"), dtype=dtypes.float32)  # t71: "cpu f32[16, 10]"
  t72 = torchex.scatter_add(t71, t19, t75, 1)  # t72: "cpu f32[16, 10]"
    # t72 = prims.scatter_add(t71, t19, t75, 1)  # t72: "cpu f32[16, 10]"
  del t71, t19, t75
  (t68,) = fuser_4(t16, t72)
    # t63 = prims.exp(t16)  # t63: "cpu f32[16, 10]"
    # t64 = prims.sum(t72, (1,))  # t64: "cpu f32[16]"
    # t65 = prims.broadcast_in_dim(t64, [16, 1], (0,))  # t65: "cpu f32[16, 1]"
    # t66 = prims.broadcast_in_dim(t65, [16, 10], (0, 1))  # t66: "cpu f32[16, 10]"
    # t67 = prims.mul(t63, t66)  # t67: "cpu f32[16, 10]"
    # t68 = prims.sub(t72, t67)  # t68: "cpu f32[16, 10]"
  del t16, t72
  t43 = torch.matmul(t68, t_fc2_weight)  # t43: "cpu f32[16, 64]"
    # t43 = ltorch.matmul(t68, t_fc2_weight)  # t43: "cpu f32[16, 64]"
      # t43 = prims.matmul(t68, t_fc2_weight)  # t43: "cpu f32[16, 64]"
  del t_fc2_weight
  t44 = torchex.reshape(t68, (16, 10))  # t44: "cpu f32[16, 10]"
    # t44 = prims.reshape(t68, (16, 10))  # t44: "cpu f32[16, 10]"
  del t68
  t45 = torchex.transpose(t44, (1, 0))  # t45: "cpu f32[10, 16]"
    # t45 = prims.transpose(t44, (1, 0))  # t45: "cpu f32[10, 16]"
  t46 = torchex.reshape(t2, (16, 64))  # t46: "cpu f32[16, 64]"
    # t46 = prims.reshape(t2, (16, 64))  # t46: "cpu f32[16, 64]"
  t47 = torchex.matmul(t45, t46)  # t47: "cpu f32[10, 64]"
    # t47 = prims.matmul(t45, t46)  # t47: "cpu f32[10, 64]"
  del t45, t46
  t48 = torchex.sum(t44, (0,))  # t48: "cpu f32[10]"
    # t48 = prims.sum(t44, (0,))  # t48: "cpu f32[10]"
  del t44
  (t40,) = fuser_5(t2, t43)
    # t39 = prims.le(t2, 0.0)  # t39: "cpu b8[16, 64]"
    # t40 = prims.where(t39, 0.0, t43)  # t40: "cpu f32[16, 64]"
  del t2, t43
  t31 = torchex.reshape(t40, (16, 64))  # t31: "cpu f32[16, 64]"
    # t31 = prims.reshape(t40, (16, 64))  # t31: "cpu f32[16, 64]"
  del t40
  t32 = torchex.transpose(t31, (1, 0))  # t32: "cpu f32[64, 16]"
    # t32 = prims.transpose(t31, (1, 0))  # t32: "cpu f32[64, 16]"
  t33 = torchex.reshape(x, (16, 32))  # t33: "cpu f32[16, 32]"
    # t33 = prims.reshape(x, (16, 32))  # t33: "cpu f32[16, 32]"
  del x
  t34 = torchex.matmul(t32, t33)  # t34: "cpu f32[64, 32]"
    # t34 = prims.matmul(t32, t33)  # t34: "cpu f32[64, 32]"
  del t32, t33
  t35 = torchex.sum(t31, (0,))  # t35: "cpu f32[64]"
    # t35 = prims.sum(t31, (0,))  # t35: "cpu f32[64]"
  del t31
  return (None, None, t34, t35, t47, t48)
