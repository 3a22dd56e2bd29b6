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
  # t0: "cpu f32[16, 64]"
  # t3: "cpu f32[16, 10]"
  x, labels, t_fc2_weight, t0, t3, = saved_for_backward
  # cotangents: "Collection"
  # t86: "cpu f32[]"
  t86, = cotangents
  (t16, t17, t19) = fuser_1(t3, labels)
    # t47 = prims.amax(t3, (1,))  # t47: "cpu f32[16]"
    # t48 = prims.broadcast_in_dim(t47, [16, 1], (0,))  # t48: "cpu f32[16, 1]"
    # t49 = prims.isfinite(t48)  # t49: "cpu b8[16, 1]"
    # t50 = prims.where(t49, t48, 0.0)  # t50: "cpu f32[16, 1]"
    # t51 = prims.broadcast_in_dim(t50, [16, 10], (0, 1))  # t51: "cpu f32[16, 10]"
    # t52 = prims.sub(t3, t51)  # t52: "cpu f32[16, 10]"
    # t53 = prims.exp(t52)  # t53: "cpu f32[16, 10]"
    # t54 = prims.sum(t53, (1,))  # t54: "cpu f32[16]"
    # t55 = prims.broadcast_in_dim(t54, [16, 1], (0,))  # t55: "cpu f32[16, 1]"
    # t56 = prims.log(t55)  # t56: "cpu f32[16, 1]"
    # t57 = prims.add(t56, t50)  # t57: "cpu f32[16, 1]"
    # t58 = prims.broadcast_in_dim(t57, [16, 10], (0, 1))  # t58: "cpu f32[16, 10]"
    # t16 = prims.sub(t3, t58)  # t16: "cpu f32[16, 10]"
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
  (t76,) = fuser_3(t17, t23, t86)
    # t25 = prims.where(t17, t23, 0.0)  # t25: "cpu f32[16]"
    # t27 = prims.sum(t25, (0,))  # t27: "cpu f32[]"
    # t85 = prims.div(t86, t27)  # t85: "cpu f32[]"
    # t82 = prims.broadcast_in_dim(t85, [16], ())  # t82: "cpu f32[16]"
    # t79 = prims.where(t17, t82, 0.0)  # t79: "cpu f32[16]"
    # t76 = prims.neg(t79)  # t76: "cpu f32[16]"
  del t17, t23, t86
  t73 = torchex.reshape(t76, (16, 1))  # t73: "cpu f32[16, 1]"
    # t73 = prims.reshape(t76, (16, 1))  # t73: "cpu f32[16, 1]"
  del t76
  t69 = torch.zeros_like(t16)  # t69: "cpu f32[16, 10]"
    # t69 = ltorch.zeros_like(t16, device=None, dtype=None)  # t69: "cpu f32[16, 10]"
      # t69 = prims.full((16, 10), 0.0, device=devices.Device("cpu"), dtype=dtypes.float32)  # t69: "cpu f32[16, 10]"
  t70 = torchex.scatter_add(t69, t19, t73, 1)  # t70: "cpu f32[16, 10]"
    # t70 = prims.scatter_add(t69, t19, t73, 1)  # t70: "cpu f32[16, 10]"
  del t69, t19, t73
  (t66,) = fuser_4(t16, t70)
    # t61 = prims.exp(t16)  # t61: "cpu f32[16, 10]"
    # t62 = prims.sum(t70, (1,))  # t62: "cpu f32[16]"
    # t63 = prims.broadcast_in_dim(t62, [16, 1], (0,))  # t63: "cpu f32[16, 1]"
    # t64 = prims.broadcast_in_dim(t63, [16, 10], (0, 1))  # t64: "cpu f32[16, 10]"
    # t65 = prims.mul(t61, t64)  # t65: "cpu f32[16, 10]"
    # t66 = prims.sub(t70, t65)  # t66: "cpu f32[16, 10]"
  del t16, t70
  t41 = torch.matmul(t66, t_fc2_weight)  # t41: "cpu f32[16, 64]"
    # t41 = ltorch.matmul(t66, t_fc2_weight)  # t41: "cpu f32[16, 64]"
      # t41 = prims.matmul(t66, t_fc2_weight)  # t41: "cpu f32[16, 64]"
  del t_fc2_weight
  t42 = torchex.reshape(t66, (16, 10))  # t42: "cpu f32[16, 10]"
    # t42 = prims.reshape(t66, (16, 10))  # t42: "cpu f32[16, 10]"
  del t66
  t43 = torchex.transpose(t42, (1, 0))  # t43: "cpu f32[10, 16]"
    # t43 = prims.transpose(t42, (1, 0))  # t43: "cpu f32[10, 16]"
  (t1, t2) = fuser_5(t0)
    # t1 = prims.gt(t0, 0.0)  # t1: "cpu b8[16, 64]"
    # t2 = prims.where(t1, t0, 0.0)  # t2: "cpu f32[16, 64]"
  del t0
  t44 = torchex.reshape(t2, (16, 64))  # t44: "cpu f32[16, 64]"
    # t44 = prims.reshape(t2, (16, 64))  # t44: "cpu f32[16, 64]"
  del t2
  t45 = torchex.matmul(t43, t44)  # t45: "cpu f32[10, 64]"
    # t45 = prims.matmul(t43, t44)  # t45: "cpu f32[10, 64]"
  del t43, t44
  t46 = torchex.sum(t42, (0,))  # t46: "cpu f32[10]"
    # t46 = prims.sum(t42, (0,))  # t46: "cpu f32[10]"
  del t42
  (t38,) = fuser_6(t1, t41)
    # t38 = prims.where(t1, t41, 0.0)  # t38: "cpu f32[16, 64]"
  del t1, t41
  t31 = torchex.reshape(t38, (16, 64))  # t31: "cpu f32[16, 64]"
    # t31 = prims.reshape(t38, (16, 64))  # t31: "cpu f32[16, 64]"
  del t38
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
  return (None, None, t34, t35, t45, t46)
