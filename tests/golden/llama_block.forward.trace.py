# Constructed by Delete Last Used
import thunder.executors.torchex as torchex
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
  (t5, t9) = fuser_0(x, t_attention_norm_weight)
    # t0 = prims.pow(x, 2.0)  # t0: "cpu f32[2, 16, 64]"
    # t1 = prims.sum(t0, (2,))  # t1: "cpu f32[2, 16]"
    # t2 = prims.div(t1, 64.0)  # t2: "cpu f32[2, 16]"
    # t3 = prims.broadcast_in_dim(t2, [2, 16, 1], (0, 1))  # t3: "cpu f32[2, 16, 1]"
    # t4 = prims.add(t3, 1e-06)  # t4: "cpu f32[2, 16, 1]"
    # t5 = prims.rsqrt(t4)  # t5: "cpu f32[2, 16, 1]"
    # t6 = prims.broadcast_in_dim(t5, [2, 16, 64], (0, 1, 2))  # t6: "cpu f32[2, 16, 64]"
    # t7 = prims.mul(x, t6)  # t7: "cpu f32[2, 16, 64]"
    # t8 = prims.broadcast_in_dim(t_attention_norm_weight, [2, 16, 64], (2,))  # t8: "cpu f32[2, 16, 64]"
    # t9 = prims.mul(t7, t8)  # t9: "cpu f32[2, 16, 64]"
  t10 = torch.nn.functional.linear(t9, t_attention_wq_weight, None)  # t10: "cpu f32[2, 16, 64]"
    # t10 = ltorch.linear(t9, t_attention_wq_weight, None)  # t10: "cpu f32[2, 16, 64]"
      # t10 = prims.linear(t9, t_attention_wq_weight, None)  # t10: "cpu f32[2, 16, 64]"
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
  del t9
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
  t20 = Tensor.__getitem__(t_attention_sin, slice(None,16,None))  # t20: "cpu f32[16, 8]"
    # t20 = ltorch.getitem(t_attention_sin, slice(None,16,None))  # t20: "cpu f32[16, 8]"
      # t20 = prims.slice_prim(t_attention_sin, [0, 0], [16, 8], [1, 1])  # t20: "cpu f32[16, 8]"
  (t22,) = fuser_1(t19, t12)
    # t21 = prims.broadcast_in_dim(t19, [2, 8, 16, 8], (2, 3))  # t21: "cpu f32[2, 8, 16, 8]"
    # t22 = prims.mul(t12, t21)  # t22: "cpu f32[2, 8, 16, 8]"
  t23 = Tensor.__getitem__(t12, (..., slice(4,None,None)))  # t23: "cpu f32[2, 8, 16, 4]"
    # t23 = ltorch.getitem(t12, (..., slice(4,None,None)))  # t23: "cpu f32[2, 8, 16, 4]"
      # t23 = prims.slice_prim(t12, [0, 0, 0, 4], [2, 8, 16, 8], [1, 1, 1, 1])  # t23: "cpu f32[2, 8, 16, 4]"
  (t24,) = fuser_2(t23)
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
  (t31,) = fuser_3(t19, t15)
    # t30 = prims.broadcast_in_dim(t19, [2, 2, 16, 8], (2, 3))  # t30: "cpu f32[2, 2, 16, 8]"
    # t31 = prims.mul(t15, t30)  # t31: "cpu f32[2, 2, 16, 8]"
  del t19
  (t29,) = fuser_4(t20, t26, t22)
    # t27 = prims.broadcast_in_dim(t20, [2, 8, 16, 8], (2, 3))  # t27: "cpu f32[2, 8, 16, 8]"
    # t28 = prims.mul(t26, t27)  # t28: "cpu f32[2, 8, 16, 8]"
    # t29 = prims.add(t22, t28)  # t29: "cpu f32[2, 8, 16, 8]"
  del t26, t22
  t32 = Tensor.__getitem__(t15, (..., slice(4,None,None)))  # t32: "cpu f32[2, 2, 16, 4]"
    # t32 = ltorch.getitem(t15, (..., slice(4,None,None)))  # t32: "cpu f32[2, 2, 16, 4]"
      # t32 = prims.slice_prim(t15, [0, 0, 0, 4], [2, 2, 16, 8], [1, 1, 1, 1])  # t32: "cpu f32[2, 2, 16, 4]"
  (t33,) = fuser_5(t32)
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
  (t38,) = fuser_6(t20, t35, t31)
    # t36 = prims.broadcast_in_dim(t20, [2, 2, 16, 8], (2, 3))  # t36: "cpu f32[2, 2, 16, 8]"
    # t37 = prims.mul(t35, t36)  # t37: "cpu f32[2, 2, 16, 8]"
    # t38 = prims.add(t31, t37)  # t38: "cpu f32[2, 2, 16, 8]"
  del t20, t35, t31
  t39 = torchex.broadcast_in_dim(t38, [2, 2, 1, 16, 8], (0, 1, 3, 4))  # t39: "cpu f32[2, 2, 1, 16, 8]"
    # t39 = prims.broadcast_in_dim(t38, [2, 2, 1, 16, 8], (0, 1, 3, 4))  # t39: "cpu f32[2, 2, 1, 16, 8]"
  del t38
  t40 = torchex.broadcast_in_dim(t39, [2, 2, 4, 16, 8], (0, 1, 2, 3, 4))  # t40: "cpu f32[2, 2, 4, 16, 8]"
    # t40 = prims.broadcast_in_dim(t39, [2, 2, 4, 16, 8], (0, 1, 2, 3, 4))  # t40: "cpu f32[2, 2, 4, 16, 8]"
  t41 = torch.reshape(t40, 2, 8, 16, 8)  # t41: "cpu f32[2, 8, 16, 8]"
    # t41 = ltorch.reshape(t40, 2, 8, 16, 8)  # t41: "cpu f32[2, 8, 16, 8]"
      # t41 = prims.reshape(t40, (2, 8, 16, 8))  # t41: "cpu f32[2, 8, 16, 8]"
  del t40
  t42 = torchex.broadcast_in_dim(t18, [2, 2, 1, 16, 8], (0, 1, 3, 4))  # t42: "cpu f32[2, 2, 1, 16, 8]"
    # t42 = prims.broadcast_in_dim(t18, [2, 2, 1, 16, 8], (0, 1, 3, 4))  # t42: "cpu f32[2, 2, 1, 16, 8]"
  del t18
  t43 = torchex.broadcast_in_dim(t42, [2, 2, 4, 16, 8], (0, 1, 2, 3, 4))  # t43: "cpu f32[2, 2, 4, 16, 8]"
    # t43 = prims.broadcast_in_dim(t42, [2, 2, 4, 16, 8], (0, 1, 2, 3, 4))  # t43: "cpu f32[2, 2, 4, 16, 8]"
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
  del t45
  (t47,) = fuser_7(t46)
    # t47 = prims.div(t46, 2.8284271247461903)  # t47: "cpu f32[2, 8, 16, 16]"
  del t46
  t48 = Tensor.__getitem__(t_attention_mask, (slice(None,16,None), slice(None,16,None)))  # t48: "cpu b8[16, 16]"
    # t48 = ltorch.getitem(t_attention_mask, (slice(None,16,None), slice(None,16,None)))  # t48: "cpu b8[16, 16]"
      # t48 = prims.slice_prim(t_attention_mask, [0, 0], [16, 16], [1, 1])  # t48: "cpu b8[16, 16]"
  (t49,) = fuser_8(t48)
    # t49 = prims.bitwise_not(t48)  # t49: "cpu b8[16, 16]"
  del t48
  (t60,) = fuser_9(t49, t47)
    # t50 = prims.broadcast_in_dim(t49, [2, 8, 16, 16], (2, 3))  # t50: "cpu b8[2, 8, 16, 16]"
    # t51 = prims.where(t50, -float('inf'), t47)  # t51: "cpu f32[2, 8, 16, 16]"
    # t214 = prims.amax(t51, (3,))  # t214: "cpu f32[2, 8, 16]"
    # t215 = prims.broadcast_in_dim(t214, [2, 8, 16, 1], (0, 1, 2))  # t215: "cpu f32[2, 8, 16, 1]"
    # t216 = prims.broadcast_in_dim(t215, [2, 8, 16, 16], (0, 1, 2, 3))  # t216: "cpu f32[2, 8, 16, 16]"
    # t217 = prims.sub(t51, t216)  # t217: "cpu f32[2, 8, 16, 16]"
    # t218 = prims.exp(t217)  # t218: "cpu f32[2, 8, 16, 16]"
    # t219 = prims.sum(t218, (3,))  # t219: "cpu f32[2, 8, 16]"
    # t220 = prims.broadcast_in_dim(t219, [2, 8, 16, 1], (0, 1, 2))  # t220: "cpu f32[2, 8, 16, 1]"
    # t221 = prims.broadcast_in_dim(t220, [2, 8, 16, 16], (0, 1, 2, 3))  # t221: "cpu f32[2, 8, 16, 16]"
    # t60 = prims.div(t218, t221)  # t60: "cpu f32[2, 8, 16, 16]"
  del t49, t47
  t61 = torch.matmul(t60, t44)  # t61: "cpu f32[2, 8, 16, 8]"
    # t61 = ltorch.matmul(t60, t44)  # t61: "cpu f32[2, 8, 16, 8]"
      # t61 = prims.matmul(t60, t44)  # t61: "cpu f32[2, 8, 16, 8]"
  del t44
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
  (t65, t71, t75) = fuser_10(x, t64, t_ffn_norm_weight)
    # t65 = prims.add(x, t64)  # t65: "cpu f32[2, 16, 64]"
    # t66 = prims.pow(t65, 2.0)  # t66: "cpu f32[2, 16, 64]"
    # t67 = prims.sum(t66, (2,))  # t67: "cpu f32[2, 16]"
    # t68 = prims.div(t67, 64.0)  # t68: "cpu f32[2, 16]"
    # t69 = prims.broadcast_in_dim(t68, [2, 16, 1], (0, 1))  # t69: "cpu f32[2, 16, 1]"
    # t70 = prims.add(t69, 1e-06)  # t70: "cpu f32[2, 16, 1]"
    # t71 = prims.rsqrt(t70)  # t71: "cpu f32[2, 16, 1]"
    # t72 = prims.broadcast_in_dim(t71, [2, 16, 64], (0, 1, 2))  # t72: "cpu f32[2, 16, 64]"
    # t73 = prims.mul(t65, t72)  # t73: "cpu f32[2, 16, 64]"
    # t74 = prims.broadcast_in_dim(t_ffn_norm_weight, [2, 16, 64], (2,))  # t74: "cpu f32[2, 16, 64]"
    # t75 = prims.mul(t73, t74)  # t75: "cpu f32[2, 16, 64]"
  del t64
  t76 = torch.nn.functional.linear(t75, t_feed_forward_w1_weight, None)  # t76: "cpu f32[2, 16, 172]"
    # t76 = ltorch.linear(t75, t_feed_forward_w1_weight, None)  # t76: "cpu f32[2, 16, 172]"
      # t76 = prims.linear(t75, t_feed_forward_w1_weight, None)  # t76: "cpu f32[2, 16, 172]"
  (t81,) = fuser_11(t76)
    # t77 = prims.neg(t76)  # t77: "cpu f32[2, 16, 172]"
    # t78 = prims.exp(t77)  # t78: "cpu f32[2, 16, 172]"
    # t79 = prims.add(1.0, t78)  # t79: "cpu f32[2, 16, 172]"
    # t80 = prims.div(1.0, t79)  # t80: "cpu f32[2, 16, 172]"
    # t81 = prims.mul(t76, t80)  # t81: "cpu f32[2, 16, 172]"
  t82 = torch.nn.functional.linear(t75, t_feed_forward_w3_weight, None)  # t82: "cpu f32[2, 16, 172]"
    # t82 = ltorch.linear(t75, t_feed_forward_w3_weight, None)  # t82: "cpu f32[2, 16, 172]"
      # t82 = prims.linear(t75, t_feed_forward_w3_weight, None)  # t82: "cpu f32[2, 16, 172]"
  del t75
  (t83,) = fuser_12(t81, t82)
    # t83 = prims.mul(t81, t82)  # t83: "cpu f32[2, 16, 172]"
  del t81
  t84 = torch.nn.functional.linear(t83, t_feed_forward_w2_weight, None)  # t84: "cpu f32[2, 16, 64]"
    # t84 = ltorch.linear(t83, t_feed_forward_w2_weight, None)  # t84: "cpu f32[2, 16, 64]"
      # t84 = prims.linear(t83, t_feed_forward_w2_weight, None)  # t84: "cpu f32[2, 16, 64]"
  del t83
  (t85,) = fuser_13(t65, t84)
    # t85 = prims.add(t65, t84)  # t85: "cpu f32[2, 16, 64]"
  del t84
  return (t85, (x, t_attention_norm_weight, t_attention_wq_weight, t_attention_wk_weight, t_attention_wv_weight, t_attention_wo_weight, t_ffn_norm_weight, t_feed_forward_w1_weight, t_feed_forward_w2_weight, t_feed_forward_w3_weight, t_attention_cos, t_attention_sin, t_attention_mask, t5, t29, t39, t42, t60, t63, t65, t71, t76, t82))
