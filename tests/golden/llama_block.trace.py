# Constructed by Delete Last Used
import torch
from torch import Tensor
from thunder.executors.torchex import no_autocast

@torch.no_grad()
@no_autocast
def Block(x, t_attention_norm_weight, t_attention_wq_weight, t_attention_wk_weight, t_attention_wv_weight, t_attention_wo_weight, t_ffn_norm_weight, t_feed_forward_w1_weight, t_feed_forward_w2_weight, t_feed_forward_w3_weight, t_attention_cos, t_attention_sin, t_attention_mask):
  # x: "cpu f32[2, 16, 64]"
  # t_attention_norm_weight: "cpu f32[64]"
  # t_attention_wq_weight: "cpu f32[64, 64]"
  # t_attention_wk_weight: "cpu f32[16, 64]"
  # t_attention_wv_weight: "cpu f32[16, 64]"
  # t_attention_wo_weight: "cpu f32[64, 64]"
  # t_ffn_norm_weight: "cpu f32[64]"
  # t_feed_forward_w1_weight: "cpu f32[172, 64]"
  # t_feed_forward_w2_weight: "cpu f32[64, 172]"
  # t_feed_forward_w3_weight: "cpu f32[172, 64]"
  # t_attention_cos: "cpu f32[32, 8]"
  # t_attention_sin: "cpu f32[32, 8]"
  # t_attention_mask: "cpu b8[32, 32]"
  t0 = torch.pow(x, 2)  # t0: "cpu f32[2, 16, 64]"
    # t0 = ltorch.pow(x, 2)  # t0: "cpu f32[2, 16, 64]"
      # t0 = prims.pow(x, 2.0)  # t0: "cpu f32[2, 16, 64]"
  t3 = torch.mean(t0, -1, True)  # t3: "cpu f32[2, 16, 1]"
    # t3 = ltorch.mean(t0, -1, True, dtype=None)  # t3: "cpu f32[2, 16, 1]"
      # t1 = prims.sum(t0, (2,))  # t1: "cpu f32[2, 16]"
      # t2 = prims.div(t1, 64.0)  # t2: "cpu f32[2, 16]"
      # t3 = prims.broadcast_in_dim(t2, [2, 16, 1], (0, 1))  # t3: "cpu f32[2, 16, 1]"
  del t0
  t4 = torch.add(t3, 1e-06)  # t4: "cpu f32[2, 16, 1]"
    # t4 = ltorch.add(t3, 1e-06, alpha=1)  # t4: "cpu f32[2, 16, 1]"
      # t4 = prims.add(t3, 1e-06)  # t4: "cpu f32[2, 16, 1]"
  del t3
  t5 = torch.rsqrt(t4)  # t5: "cpu f32[2, 16, 1]"
    # t5 = ltorch.rsqrt(t4)  # t5: "cpu f32[2, 16, 1]"
      # t5 = prims.rsqrt(t4)  # t5: "cpu f32[2, 16, 1]"
  del t4
  t7 = torch.mul(x, t5)  # t7: "cpu f32[2, 16, 64]"
    # t7 = ltorch.mul(x, t5)  # t7: "cpu f32[2, 16, 64]"
      # t6 = prims.broadcast_in_dim(t5, [2, 16, 64], (0, 1, 2))  # t6: "cpu f32[2, 16, 64]"
      # t7 = prims.mul(x, t6)  # t7: "cpu f32[2, 16, 64]"
  del t5
  t9 = torch.mul(t7, t_attention_norm_weight)  # t9: "cpu f32[2, 16, 64]"
    # t9 = ltorch.mul(t7, t_attention_norm_weight)  # t9: "cpu f32[2, 16, 64]"
      # t8 = prims.broadcast_in_dim(t_attention_norm_weight, [2, 16, 64], (2,))  # t8: "cpu f32[2, 16, 64]"
      # t9 = prims.mul(t7, t8)  # t9: "cpu f32[2, 16, 64]"
  del t7, t_attention_norm_weight
  t10 = torch.nn.functional.linear(t9, t_attention_wq_weight, None)  # t10: "cpu f32[2, 16, 64]"
    # t10 = ltorch.linear(t9, t_attention_wq_weight, None)  # t10: "cpu f32[2, 16, 64]"
      # t10 = prims.linear(t9, t_attention_wq_weight, None)  # t10: "cpu f32[2, 16, 64]"
  del t_attention_wq_weight
  t11 = Tensor.view(t10, 2, 16, 8, 8)  # t11: "cpu f32[2, 16, 8, 8]"
    # t11 = ltorch.view(t10, 2, 16, 8, 8)  # t11: "cpu f32[2, 16, 8, 8]"
      # t11 = prims.reshape(t10, (2, 16, 8, 8))  # t11: "cpu f32[2, 16, 8, 8]"
  del t10
  t12 = torch.transpose(t11, 1, 2)  # t12: "cpu f32[2, 8, 16, 8]"
    # t12 = ltorch.transpose(t11, 1, 2)  # t12: "cpu f32[2, 8, 16, 8]"
      # t12 = prims.transpose(t11, (0, 2, 1, 3))  # t12: "cpu f32[2, 8, 16, 8]"
  del t11
  t13 = torch.nn.functional.linear(t9, t_attention_wk_weight, None)  # t13: "cpu f32[2, 16, 16]"
    # t13 = ltorch.linear(t9, t_attention_wk_weight, None)  # t13: "cpu f32[2, 16, 16]"
      # t13 = prims.linear(t9, t_attention_wk_weight, None)  # t13: "cpu f32[2, 16, 16]"
  del t_attention_wk_weight
  t14 = Tensor.view(t13, 2, 16, 2, 8)  # t14: "cpu f32[2, 16, 2, 8]"
    # t14 = ltorch.view(t13, 2, 16, 2, 8)  # t14: "cpu f32[2, 16, 2, 8]"
      # t14 = prims.reshape(t13, (2, 16, 2, 8))  # t14: "cpu f32[2, 16, 2, 8]"
  del t13
  t15 = torch.transpose(t14, 1, 2)  # t15: "cpu f32[2, 2, 16, 8]"
    # t15 = ltorch.transpose(t14, 1, 2)  # t15: "cpu f32[2, 2, 16, 8]"
      # t15 = prims.transpose(t14, (0, 2, 1, 3))  # t15: "cpu f32[2, 2, 16, 8]"
  del t14
  t16 = torch.nn.functional.linear(t9, t_attention_wv_weight, None)  # t16: "cpu f32[2, 16, 16]"
    # t16 = ltorch.linear(t9, t_attention_wv_weight, None)  # t16: "cpu f32[2, 16, 16]"
      # t16 = prims.linear(t9, t_attention_wv_weight, None)  # t16: "cpu f32[2, 16, 16]"
  del t9, t_attention_wv_weight
  t17 = Tensor.view(t16, 2, 16, 2, 8)  # t17: "cpu f32[2, 16, 2, 8]"
    # t17 = ltorch.view(t16, 2, 16, 2, 8)  # t17: "cpu f32[2, 16, 2, 8]"
      # t17 = prims.reshape(t16, (2, 16, 2, 8))  # t17: "cpu f32[2, 16, 2, 8]"
  del t16
  t18 = torch.transpose(t17, 1, 2)  # t18: "cpu f32[2, 2, 16, 8]"
    # t18 = ltorch.transpose(t17, 1, 2)  # t18: "cpu f32[2, 2, 16, 8]"
      # t18 = prims.transpose(t17, (0, 2, 1, 3))  # t18: "cpu f32[2, 2, 16, 8]"
  del t17
  t19 = Tensor.__getitem__(t_attention_cos, slice(None,16,None))  # t19: "cpu f32[16, 8]"
    # t19 = ltorch.getitem(t_attention_cos, slice(None,16,None))  # t19: "cpu f32[16, 8]"
      # t19 = prims.slice_prim(t_attention_cos, [0, 0], [16, 8], [1, 1])  # t19: "cpu f32[16, 8]"
  del t_attention_cos
  t20 = Tensor.__getitem__(t_attention_sin, slice(None,16,None))  # t20: "cpu f32[16, 8]"
    # t20 = ltorch.getitem(t_attention_sin, slice(None,16,None))  # t20: "cpu f32[16, 8]"
      # t20 = prims.slice_prim(t_attention_sin, [0, 0], [16, 8], [1, 1])  # t20: "cpu f32[16, 8]"
  del t_attention_sin
  t22 = torch.mul(t12, t19)  # t22: "cpu f32[2, 8, 16, 8]"
    # t22 = ltorch.mul(t12, t19)  # t22: "cpu f32[2, 8, 16, 8]"
      # t21 = prims.broadcast_in_dim(t19, [2, 8, 16, 8], (2, 3))  # t21: "cpu f32[2, 8, 16, 8]"
      # t22 = prims.mul(t12, t21)  # t22: "cpu f32[2, 8, 16, 8]"
  t23 = Tensor.__getitem__(t12, (..., slice(4,None,None)))  # t23: "cpu f32[2, 8, 16, 4]"
    # t23 = ltorch.getitem(t12, (..., slice(4,None,None)))  # t23: "cpu f32[2, 8, 16, 4]"
      # t23 = prims.slice_prim(t12, [0, 0, 0, 4], [2, 8, 16, 8], [1, 1, 1, 1])  # t23: "cpu f32[2, 8, 16, 4]"
  t24 = torch.neg(t23)  # t24: "cpu f32[2, 8, 16, 4]"
    # t24 = ltorch.neg(t23)  # t24: "cpu f32[2, 8, 16, 4]"
      # t24 = prims.neg(t23)  # t24: "cpu f32[2, 8, 16, 4]"
  del t23
  t25 = Tensor.__getitem__(t12, (..., slice(None,4,None)))  # t25: "cpu f32[2, 8, 16, 4]"
    # t25 = ltorch.getitem(t12, (..., slice(None,4,None)))  # t25: "cpu f32[2, 8, 16, 4]"
      # t25 = prims.slice_prim(t12, [0, 0, 0, 0], [2, 8, 16, 4], [1, 1, 1, 1])  # t25: "cpu f32[2, 8, 16, 4]"
  del t12
  t26 = torch.cat((t24, t25), -1)  # t26: "cpu f32[2, 8, 16, 8]"
    # t26 = ltorch.cat((t24, t25), -1)  # t26: "cpu f32[2, 8, 16, 8]"
      # t26 = prims.cat([t24, t25], -1)  # t26: "cpu f32[2, 8, 16, 8]"
  del t24, t25
  t28 = torch.mul(t26, t20)  # t28: "cpu f32[2, 8, 16, 8]"
    # t28 = ltorch.mul(t26, t20)  # t28: "cpu f32[2, 8, 16, 8]"
      # t27 = prims.broadcast_in_dim(t20, [2, 8, 16, 8], (2, 3))  # t27: "cpu f32[2, 8, 16, 8]"
      # t28 = prims.mul(t26, t27)  # t28: "cpu f32[2, 8, 16, 8]"
  del t26
  t29 = torch.add(t22, t28)  # t29: "cpu f32[2, 8, 16, 8]"
    # t29 = ltorch.add(t22, t28, alpha=1)  # t29: "cpu f32[2, 8, 16, 8]"
      # t29 = prims.add(t22, t28)  # t29: "cpu f32[2, 8, 16, 8]"
  del t22, t28
  t31 = torch.mul(t15, t19)  # t31: "cpu f32[2, 2, 16, 8]"
    # t31 = ltorch.mul(t15, t19)  # t31: "cpu f32[2, 2, 16, 8]"
      # t30 = prims.broadcast_in_dim(t19, [2, 2, 16, 8], (2, 3))  # t30: "cpu f32[2, 2, 16, 8]"
      # t31 = prims.mul(t15, t30)  # t31: "cpu f32[2, 2, 16, 8]"
  del t19
  t32 = Tensor.__getitem__(t15, (..., slice(4,None,None)))  # t32: "cpu f32[2, 2, 16, 4]"
    # t32 = ltorch.getitem(t15, (..., slice(4,None,None)))  # t32: "cpu f32[2, 2, 16, 4]"
      # t32 = prims.slice_prim(t15, [0, 0, 0, 4], [2, 2, 16, 8], [1, 1, 1, 1])  # t32: "cpu f32[2, 2, 16, 4]"
  t33 = torch.neg(t32)  # t33: "cpu f32[2, 2, 16, 4]"
    # t33 = ltorch.neg(t32)  # t33: "cpu f32[2, 2, 16, 4]"
      # t33 = prims.neg(t32)  # t33: "cpu f32[2, 2, 16, 4]"
  del t32
  t34 = Tensor.__getitem__(t15, (..., slice(None,4,None)))  # t34: "cpu f32[2, 2, 16, 4]"
    # t34 = ltorch.getitem(t15, (..., slice(None,4,None)))  # t34: "cpu f32[2, 2, 16, 4]"
      # t34 = prims.slice_prim(t15, [0, 0, 0, 0], [2, 2, 16, 4], [1, 1, 1, 1])  # t34: "cpu f32[2, 2, 16, 4]"
  del t15
  t35 = torch.cat((t33, t34), -1)  # t35: "cpu f32[2, 2, 16, 8]"
    # t35 = ltorch.cat((t33, t34), -1)  # t35: "cpu f32[2, 2, 16, 8]"
      # t35 = prims.cat([t33, t34], -1)  # t35: "cpu f32[2, 2, 16, 8]"
  del t33, t34
  t37 = torch.mul(t35, t20)  # t37: "cpu f32[2, 2, 16, 8]"
    # t37 = ltorch.mul(t35, t20)  # t37: "cpu f32[2, 2, 16, 8]"
      # t36 = prims.broadcast_in_dim(t20, [2, 2, 16, 8], (2, 3))  # t36: "cpu f32[2, 2, 16, 8]"
      # t37 = prims.mul(t35, t36)  # t37: "cpu f32[2, 2, 16, 8]"
  del t35, t20
  t38 = torch.add(t31, t37)  # t38: "cpu f32[2, 2, 16, 8]"
    # t38 = ltorch.add(t31, t37, alpha=1)  # t38: "cpu f32[2, 2, 16, 8]"
      # t38 = prims.add(t31, t37)  # t38: "cpu f32[2, 2, 16, 8]"
  del t31, t37
  t39 = Tensor.__getitem__(t38, (slice(None,None,None), slice(None,None,None), None))  # t39: "cpu f32[2, 2, 1, 16, 8]"
    # t39 = ltorch.getitem(t38, (slice(None,None,None), slice(None,None,None), None))  # t39: "cpu f32[2, 2, 1, 16, 8]"
      # t39 = prims.broadcast_in_dim(t38, [2, 2, 1, 16, 8], (0, 1, 3, 4))  # t39: "cpu f32[2, 2, 1, 16, 8]"
  del t38
  t40 = Tensor.expand(t39, 2, 2, 4, 16, 8)  # t40: "cpu f32[2, 2, 4, 16, 8]"
    # t40 = ltorch.expand(t39, 2, 2, 4, 16, 8)  # t40: "cpu f32[2, 2, 4, 16, 8]"
      # t40 = prims.broadcast_in_dim(t39, [2, 2, 4, 16, 8], (0, 1, 2, 3, 4))  # t40: "cpu f32[2, 2, 4, 16, 8]"
  del t39
  t41 = torch.reshape(t40, 2, 8, 16, 8)  # t41: "cpu f32[2, 8, 16, 8]"
    # t41 = ltorch.reshape(t40, 2, 8, 16, 8)  # t41: "cpu f32[2, 8, 16, 8]"
      # t41 = prims.reshape(t40, (2, 8, 16, 8))  # t41: "cpu f32[2, 8, 16, 8]"
  del t40
  t42 = Tensor.__getitem__(t18, (slice(None,None,None), slice(None,None,None), None))  # t42: "cpu f32[2, 2, 1, 16, 8]"
    # t42 = ltorch.getitem(t18, (slice(None,None,None), slice(None,None,None), None))  # t42: "cpu f32[2, 2, 1, 16, 8]"
      # t42 = prims.broadcast_in_dim(t18, [2, 2, 1, 16, 8], (0, 1, 3, 4))  # t42: "cpu f32[2, 2, 1, 16, 8]"
  del t18
  t43 = Tensor.expand(t42, 2, 2, 4, 16, 8)  # t43: "cpu f32[2, 2, 4, 16, 8]"
    # t43 = ltorch.expand(t42, 2, 2, 4, 16, 8)  # t43: "cpu f32[2, 2, 4, 16, 8]"
      # t43 = prims.broadcast_in_dim(t42, [2, 2, 4, 16, 8], (0, 1, 2, 3, 4))  # t43: "cpu f32[2, 2, 4, 16, 8]"
  del t42
  t44 = torch.reshape(t43, 2, 8, 16, 8)  # t44: "cpu f32[2, 8, 16, 8]"
    # t44 = ltorch.reshape(t43, 2, 8, 16, 8)  # t44: "cpu f32[2, 8, 16, 8]"
      # t44 = prims.reshape(t43, (2, 8, 16, 8))  # t44: "cpu f32[2, 8, 16, 8]"
  del t43
  t45 = torch.transpose(t41, -2, -1)  # t45: "cpu f32[2, 8, 8, 16]"
    # t45 = ltorch.transpose(t41, -2, -1)  # t45: "cpu f32[2, 8, 8, 16]"
      # t45 = prims.transpose(t41, (0, 1, 3, 2))  # t45: "cpu f32[2, 8, 8, 16]"
  del t41
  t46 = torch.matmul(t29, t45)  # t46: "cpu f32[2, 8, 16, 16]"
    # t46 = ltorch.matmul(t29, t45)  # t46: "cpu f32[2, 8, 16, 16]"
      # t46 = prims.matmul(t29, t45)  # t46: "cpu f32[2, 8, 16, 16]"
  del t29, t45
  t47 = torch.div(t46, 2.8284271247461903)  # t47: "cpu f32[2, 8, 16, 16]"
    # t47 = ltorch.div(t46, 2.8284271247461903, rounding_mode=None)  # t47: "cpu f32[2, 8, 16, 16]"
      # t47 = ltorch.true_divide(t46, 2.8284271247461903)  # t47: "cpu f32[2, 8, 16, 16]"
        # t47 = prims.div(t46, 2.8284271247461903)  # t47: "cpu f32[2, 8, 16, 16]"
  del t46
  t48 = Tensor.__getitem__(t_attention_mask, (slice(None,16,None), slice(None,16,None)))  # t48: "cpu b8[16, 16]"
    # t48 = ltorch.getitem(t_attention_mask, (slice(None,16,None), slice(None,16,None)))  # t48: "cpu b8[16, 16]"
      # t48 = prims.slice_prim(t_attention_mask, [0, 0], [16, 16], [1, 1])  # t48: "cpu b8[16, 16]"
  del t_attention_mask
  t49 = torch.bitwise_not(t48)  # t49: "cpu b8[16, 16]"
    # t49 = ltorch.bitwise_not(t48)  # t49: "cpu b8[16, 16]"
      # t49 = prims.bitwise_not(t48)  # t49: "cpu b8[16, 16]"
  del t48
  t51 = torch.masked_fill(t47, t49, -float('inf'))  # t51: "cpu f32[2, 8, 16, 16]"
    # t51 = ltorch.masked_fill(t47, t49, -float('inf'))  # t51: "cpu f32[2, 8, 16, 16]"
      # t51 = ltorch.where(t49, -float('inf'), t47)  # t51: "cpu f32[2, 8, 16, 16]"
        # t50 = prims.broadcast_in_dim(t49, [2, 8, 16, 16], (2, 3))  # t50: "cpu b8[2, 8, 16, 16]"
        # t51 = prims.where(t50, -float('inf'), t47)  # t51: "cpu f32[2, 8, 16, 16]"
  del t47, t49
  t60 = torch.softmax(t51, -1)  # t60: "cpu f32[2, 8, 16, 16]"
    # t60 = ltorch.softmax(t51, -1, dtype=None)  # t60: "cpu f32[2, 8, 16, 16]"
      # t53 = ltorch.amax(t51, (-1,), True)  # t53: "cpu f32[2, 8, 16, 1]"
        # t52 = prims.amax(t51, (3,))  # t52: "cpu f32[2, 8, 16]"
        # t53 = prims.broadcast_in_dim(t52, [2, 8, 16, 1], (0, 1, 2))  # t53: "cpu f32[2, 8, 16, 1]"
      # t55 = ltorch.sub(t51, t53, alpha=1)  # t55: "cpu f32[2, 8, 16, 16]"
        # t54 = prims.broadcast_in_dim(t53, [2, 8, 16, 16], (0, 1, 2, 3))  # t54: "cpu f32[2, 8, 16, 16]"
        # t55 = prims.sub(t51, t54)  # t55: "cpu f32[2, 8, 16, 16]"
      # t56 = ltorch.exp(t55)  # t56: "cpu f32[2, 8, 16, 16]"
        # t56 = prims.exp(t55)  # t56: "cpu f32[2, 8, 16, 16]"
      # t58 = ltorch.sum(t56, (-1,), True, dtype=None)  # t58: "cpu f32[2, 8, 16, 1]"
        # t57 = prims.sum(t56, (3,))  # t57: "cpu f32[2, 8, 16]"
        # t58 = prims.broadcast_in_dim(t57, [2, 8, 16, 1], (0, 1, 2))  # t58: "cpu f32[2, 8, 16, 1]"
      # t60 = ltorch.true_divide(t56, t58)  # t60: "cpu f32[2, 8, 16, 16]"
        # t59 = prims.broadcast_in_dim(t58, [2, 8, 16, 16], (0, 1, 2, 3))  # t59: "cpu f32[2, 8, 16, 16]"
        # t60 = prims.div(t56, t59)  # t60: "cpu f32[2, 8, 16, 16]"
  del t51
  t61 = torch.matmul(t60, t44)  # t61: "cpu f32[2, 8, 16, 8]"
    # t61 = ltorch.matmul(t60, t44)  # t61: "cpu f32[2, 8, 16, 8]"
      # t61 = prims.matmul(t60, t44)  # t61: "cpu f32[2, 8, 16, 8]"
  del t60, t44
  t62 = torch.transpose(t61, 1, 2)  # t62: "cpu f32[2, 16, 8, 8]"
    # t62 = ltorch.transpose(t61, 1, 2)  # t62: "cpu f32[2, 16, 8, 8]"
      # t62 = prims.transpose(t61, (0, 2, 1, 3))  # t62: "cpu f32[2, 16, 8, 8]"
  del t61
  t63 = torch.reshape(t62, 2, 16, -1)  # t63: "cpu f32[2, 16, 64]"
    # t63 = ltorch.reshape(t62, 2, 16, -1)  # t63: "cpu f32[2, 16, 64]"
      # t63 = prims.reshape(t62, (2, 16, 64))  # t63: "cpu f32[2, 16, 64]"
  del t62
  t64 = torch.nn.functional.linear(t63, t_attention_wo_weight, None)  # t64: "cpu f32[2, 16, 64]"
    # t64 = ltorch.linear(t63, t_attention_wo_weight, None)  # t64: "cpu f32[2, 16, 64]"
      # t64 = prims.linear(t63, t_attention_wo_weight, None)  # t64: "cpu f32[2, 16, 64]"
  del t63, t_attention_wo_weight
  t65 = torch.add(x, t64)  # t65: "cpu f32[2, 16, 64]"
    # t65 = ltorch.add(x, t64, alpha=1)  # t65: "cpu f32[2, 16, 64]"
      # t65 = prims.add(x, t64)  # t65: "cpu f32[2, 16, 64]"
  del x, t64
  t66 = torch.pow(t65, 2)  # t66: "cpu f32[2, 16, 64]"
    # t66 = ltorch.pow(t65, 2)  # t66: "cpu f32[2, 16, 64]"
      # t66 = prims.pow(t65, 2.0)  # t66: "cpu f32[2, 16, 64]"
  t69 = torch.mean(t66, -1, True)  # t69: "cpu f32[2, 16, 1]"
    # t69 = ltorch.mean(t66, -1, True, dtype=None)  # t69: "cpu f32[2, 16, 1]"
      # t67 = prims.sum(t66, (2,))  # t67: "cpu f32[2, 16]"
      # t68 = prims.div(t67, 64.0)  # t68: "cpu f32[2, 16]"
      # t69 = prims.broadcast_in_dim(t68, [2, 16, 1], (0, 1))  # t69: "cpu f32[2, 16, 1]"
  del t66
  t70 = torch.add(t69, 1e-06)  # t70: "cpu f32[2, 16, 1]"
    # t70 = ltorch.add(t69, 1e-06, alpha=1)  # t70: "cpu f32[2, 16, 1]"
      # t70 = prims.add(t69, 1e-06)  # t70: "cpu f32[2, 16, 1]"
  del t69
  t71 = torch.rsqrt(t70)  # t71: "cpu f32[2, 16, 1]"
    # t71 = ltorch.rsqrt(t70)  # t71: "cpu f32[2, 16, 1]"
      # t71 = prims.rsqrt(t70)  # t71: "cpu f32[2, 16, 1]"
  del t70
  t73 = torch.mul(t65, t71)  # t73: "cpu f32[2, 16, 64]"
    # t73 = ltorch.mul(t65, t71)  # t73: "cpu f32[2, 16, 64]"
      # t72 = prims.broadcast_in_dim(t71, [2, 16, 64], (0, 1, 2))  # t72: "cpu f32[2, 16, 64]"
      # t73 = prims.mul(t65, t72)  # t73: "cpu f32[2, 16, 64]"
  del t71
  t75 = torch.mul(t73, t_ffn_norm_weight)  # t75: "cpu f32[2, 16, 64]"
    # t75 = ltorch.mul(t73, t_ffn_norm_weight)  # t75: "cpu f32[2, 16, 64]"
      # t74 = prims.broadcast_in_dim(t_ffn_norm_weight, [2, 16, 64], (2,))  # t74: "cpu f32[2, 16, 64]"
      # t75 = prims.mul(t73, t74)  # t75: "cpu f32[2, 16, 64]"
  del t73, t_ffn_norm_weight
  t76 = torch.nn.functional.linear(t75, t_feed_forward_w1_weight, None)  # t76: "cpu f32[2, 16, 172]"
    # t76 = ltorch.linear(t75, t_feed_forward_w1_weight, None)  # t76: "cpu f32[2, 16, 172]"
      # t76 = prims.linear(t75, t_feed_forward_w1_weight, None)  # t76: "cpu f32[2, 16, 172]"
  del t_feed_forward_w1_weight
  t81 = torch.nn.functional.silu(t76, False)  # t81: "cpu f32[2, 16, 172]"
    # t81 = ltorch.silu(t76, False)  # t81: "cpu f32[2, 16, 172]"
      # t80 = ltorch.sigmoid(t76)  # t80: "cpu f32[2, 16, 172]"
        # t77 = ltorch.neg(t76)  # t77: "cpu f32[2, 16, 172]"
          # t77 = prims.neg(t76)  # t77: "cpu f32[2, 16, 172]"
        # t78 = ltorch.exp(t77)  # t78: "cpu f32[2, 16, 172]"
          # t78 = prims.exp(t77)  # t78: "cpu f32[2, 16, 172]"
        # t79 = ltorch.add(1.0, t78, alpha=1)  # t79: "cpu f32[2, 16, 172]"
          # t79 = prims.add(1.0, t78)  # t79: "cpu f32[2, 16, 172]"
        # t80 = ltorch.true_divide(1.0, t79)  # t80: "cpu f32[2, 16, 172]"
          # t80 = prims.div(1.0, t79)  # t80: "cpu f32[2, 16, 172]"
      # t81 = ltorch.mul(t76, t80)  # t81: "cpu f32[2, 16, 172]"
        # t81 = prims.mul(t76, t80)  # t81: "cpu f32[2, 16, 172]"
  del t76
  t82 = torch.nn.functional.linear(t75, t_feed_forward_w3_weight, None)  # t82: "cpu f32[2, 16, 172]"
    # t82 = ltorch.linear(t75, t_feed_forward_w3_weight, None)  # t82: "cpu f32[2, 16, 172]"
      # t82 = prims.linear(t75, t_feed_forward_w3_weight, None)  # t82: "cpu f32[2, 16, 172]"
  del t75, t_feed_forward_w3_weight
  t83 = torch.mul(t81, t82)  # t83: "cpu f32[2, 16, 172]"
    # t83 = ltorch.mul(t81, t82)  # t83: "cpu f32[2, 16, 172]"
      # t83 = prims.mul(t81, t82)  # t83: "cpu f32[2, 16, 172]"
  del t81, t82
  t84 = torch.nn.functional.linear(t83, t_feed_forward_w2_weight, None)  # t84: "cpu f32[2, 16, 64]"
    # t84 = ltorch.linear(t83, t_feed_forward_w2_weight, None)  # t84: "cpu f32[2, 16, 64]"
      # t84 = prims.linear(t83, t_feed_forward_w2_weight, None)  # t84: "cpu f32[2, 16, 64]"
  del t83, t_feed_forward_w2_weight
  t85 = torch.add(t65, t84)  # t85: "cpu f32[2, 16, 64]"
    # t85 = ltorch.add(t65, t84, alpha=1)  # t85: "cpu f32[2, 16, 64]"
      # t85 = prims.add(t65, t84)  # t85: "cpu f32[2, 16, 64]"
  del t65, t84
  return t85
