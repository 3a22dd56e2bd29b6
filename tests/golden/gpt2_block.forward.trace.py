# Constructed by Delete Last Used
import torch
from torch import Tensor
from thunder.executors.torchex import no_autocast

@torch.no_grad()
@no_autocast
def Block(x, t_ln_1_weight, t_ln_1_bias, t_attn_c_attn_weight, t_attn_c_attn_bias, t_attn_c_proj_weight, t_attn_c_proj_bias, t_ln_2_weight, t_ln_2_bias, t_mlp_c_fc_weight, t_mlp_c_fc_bias, t_mlp_c_proj_weight, t_mlp_c_proj_bias, t_attn_bias):
  # x: "cpu f32[2, 16, 64]"
  # t_ln_1_weight: "cpu f32[64]"
  # t_ln_1_bias: "cpu f32[64]"
  # t_attn_c_attn_weight: "cpu f32[192, 64]"
  # t_attn_c_attn_bias: "cpu f32[192]"
  # t_attn_c_proj_weight: "cpu f32[64, 64]"
  # t_attn_c_proj_bias: "cpu f32[64]"
  # t_ln_2_weight: "cpu f32[64]"
  # t_ln_2_bias: "cpu f32[64]"
  # t_mlp_c_fc_weight: "cpu f32[256, 64]"
  # t_mlp_c_fc_bias: "cpu f32[256]"
  # t_mlp_c_proj_weight: "cpu f32[64, 256]"
  # t_mlp_c_proj_bias: "cpu f32[64]"
  # t_attn_bias: "cpu f32[1, 1, 16, 16]"
  (t13,) = fuser_0(x, t_ln_1_weight, t_ln_1_bias)
    # (t71, t72) = prims.var_mean(x, (2,), correction=0)
    # t73 = prims.broadcast_in_dim(t71, [2, 16, 1], (0, 1))  # t73: "cpu f32[2, 16, 1]"
    # t74 = prims.broadcast_in_dim(t72, [2, 16, 1], (0, 1))  # t74: "cpu f32[2, 16, 1]"
    # t75 = prims.add(t73, 1e-05)  # t75: "cpu f32[2, 16, 1]"
    # t76 = prims.rsqrt(t75)  # t76: "cpu f32[2, 16, 1]"
    # t77 = prims.broadcast_in_dim(t74, [2, 16, 64], (0, 1, 2))  # t77: "cpu f32[2, 16, 64]"
    # t78 = prims.sub(x, t77)  # t78: "cpu f32[2, 16, 64]"
    # t79 = prims.broadcast_in_dim(t76, [2, 16, 64], (0, 1, 2))  # t79: "cpu f32[2, 16, 64]"
    # t80 = prims.mul(t78, t79)  # t80: "cpu f32[2, 16, 64]"
    # t81 = prims.broadcast_in_dim(t_ln_1_weight, [2, 16, 64], (2,))  # t81: "cpu f32[2, 16, 64]"
    # t82 = prims.mul(t80, t81)  # t82: "cpu f32[2, 16, 64]"
    # t83 = prims.broadcast_in_dim(t_ln_1_bias, [2, 16, 64], (2,))  # t83: "cpu f32[2, 16, 64]"
    # t13 = prims.add(t82, t83)  # t13: "cpu f32[2, 16, 64]"
  del t_ln_1_weight, t_ln_1_bias
  t14 = torch.nn.functional.linear(t13, t_attn_c_attn_weight, t_attn_c_attn_bias)  # t14: "cpu f32[2, 16, 192]"
    # t14 = ltorch.linear(t13, t_attn_c_attn_weight, t_attn_c_attn_bias)  # t14: "cpu f32[2, 16, 192]"
      # t14 = prims.linear(t13, t_attn_c_attn_weight, t_attn_c_attn_bias)  # t14: "cpu f32[2, 16, 192]"
  del t_attn_c_attn_bias
  (t15, t16, t17) = torch.split(t14, 64, 2)
    # (t15, t16, t17) = ltorch.split(t14, 64, 2)
      # t15 = prims.slice_prim(t14, [0, 0, 0], [2, 16, 64], [1, 1, 1])  # t15: "cpu f32[2, 16, 64]"
      # t16 = prims.slice_prim(t14, [0, 0, 64], [2, 16, 128], [1, 1, 1])  # t16: "cpu f32[2, 16, 64]"
      # t17 = prims.slice_prim(t14, [0, 0, 128], [2, 16, 192], [1, 1, 1])  # t17: "cpu f32[2, 16, 64]"
  del t14
  t18 = Tensor.view(t16, 2, 16, 4, 16)  # t18: "cpu f32[2, 16, 4, 16]"
    # t18 = ltorch.view(t16, 2, 16, 4, 16)  # t18: "cpu f32[2, 16, 4, 16]"
      # t18 = prims.reshape(t16, (2, 16, 4, 16))  # t18: "cpu f32[2, 16, 4, 16]"
  del t16
  t19 = torch.transpose(t18, 1, 2)  # t19: "cpu f32[2, 4, 16, 16]"
    # t19 = ltorch.transpose(t18, 1, 2)  # t19: "cpu f32[2, 4, 16, 16]"
      # t19 = prims.transpose(t18, (0, 2, 1, 3))  # t19: "cpu f32[2, 4, 16, 16]"
  del t18
  t20 = Tensor.view(t15, 2, 16, 4, 16)  # t20: "cpu f32[2, 16, 4, 16]"
    # t20 = ltorch.view(t15, 2, 16, 4, 16)  # t20: "cpu f32[2, 16, 4, 16]"
      # t20 = prims.reshape(t15, (2, 16, 4, 16))  # t20: "cpu f32[2, 16, 4, 16]"
  del t15
  t21 = torch.transpose(t20, 1, 2)  # t21: "cpu f32[2, 4, 16, 16]"
    # t21 = ltorch.transpose(t20, 1, 2)  # t21: "cpu f32[2, 4, 16, 16]"
      # t21 = prims.transpose(t20, (0, 2, 1, 3))  # t21: "cpu f32[2, 4, 16, 16]"
  del t20
  t22 = Tensor.view(t17, 2, 16, 4, 16)  # t22: "cpu f32[2, 16, 4, 16]"
    # t22 = ltorch.view(t17, 2, 16, 4, 16)  # t22: "cpu f32[2, 16, 4, 16]"
      # t22 = prims.reshape(t17, (2, 16, 4, 16))  # t22: "cpu f32[2, 16, 4, 16]"
  del t17
  t23 = torch.transpose(t22, 1, 2)  # t23: "cpu f32[2, 4, 16, 16]"
    # t23 = ltorch.transpose(t22, 1, 2)  # t23: "cpu f32[2, 4, 16, 16]"
      # t23 = prims.transpose(t22, (0, 2, 1, 3))  # t23: "cpu f32[2, 4, 16, 16]"
  del t22
  t24 = torch.transpose(t19, -2, -1)  # t24: "cpu f32[2, 4, 16, 16]"
    # t24 = ltorch.transpose(t19, -2, -1)  # t24: "cpu f32[2, 4, 16, 16]"
      # t24 = prims.transpose(t19, (0, 1, 3, 2))  # t24: "cpu f32[2, 4, 16, 16]"
  del t19
  t25 = torch.matmul(t21, t24)  # t25: "cpu f32[2, 4, 16, 16]"
    # t25 = ltorch.matmul(t21, t24)  # t25: "cpu f32[2, 4, 16, 16]"
      # t25 = prims.matmul(t21, t24)  # t25: "cpu f32[2, 4, 16, 16]"
  (t27,) = fuser_1(t_attn_bias)
    # t27 = prims.eq(t_attn_bias, 0.0)  # t27: "cpu b8[1, 1, 16, 16]"
  (t38,) = fuser_2(t25, t27)
    # t26 = prims.mul(t25, 0.25)  # t26: "cpu f32[2, 4, 16, 16]"
    # t28 = prims.broadcast_in_dim(t27, [2, 4, 16, 16], (0, 1, 2, 3))  # t28: "cpu b8[2, 4, 16, 16]"
    # t29 = prims.where(t28, -float('inf'), t26)  # t29: "cpu f32[2, 4, 16, 16]"
    # t165 = prims.amax(t29, (3,))  # t165: "cpu f32[2, 4, 16]"
    # t166 = prims.broadcast_in_dim(t165, [2, 4, 16, 1], (0, 1, 2))  # t166: "cpu f32[2, 4, 16, 1]"
    # t167 = prims.broadcast_in_dim(t166, [2, 4, 16, 16], (0, 1, 2, 3))  # t167: "cpu f32[2, 4, 16, 16]"
    # t168 = prims.sub(t29, t167)  # t168: "cpu f32[2, 4, 16, 16]"
    # t169 = prims.exp(t168)  # t169: "cpu f32[2, 4, 16, 16]"
    # t170 = prims.sum(t169, (3,))  # t170: "cpu f32[2, 4, 16]"
    # t171 = prims.broadcast_in_dim(t170, [2, 4, 16, 1], (0, 1, 2))  # t171: "cpu f32[2, 4, 16, 1]"
    # t172 = prims.broadcast_in_dim(t171, [2, 4, 16, 16], (0, 1, 2, 3))  # t172: "cpu f32[2, 4, 16, 16]"
    # t38 = prims.div(t169, t172)  # t38: "cpu f32[2, 4, 16, 16]"
  del t25, t27
  t39 = torch.matmul(t38, t23)  # t39: "cpu f32[2, 4, 16, 16]"
    # t39 = ltorch.matmul(t38, t23)  # t39: "cpu f32[2, 4, 16, 16]"
      # t39 = prims.matmul(t38, t23)  # t39: "cpu f32[2, 4, 16, 16]"
  t40 = torch.transpose(t39, 1, 2)  # t40: "cpu f32[2, 16, 4, 16]"
    # t40 = ltorch.transpose(t39, 1, 2)  # t40: "cpu f32[2, 16, 4, 16]"
      # t40 = prims.transpose(t39, (0, 2, 1, 3))  # t40: "cpu f32[2, 16, 4, 16]"
  del t39
  t41 = Tensor.contiguous(t40)  # t41: "cpu f32[2, 16, 4, 16]"
    # t41 = ltorch.contiguous(t40)  # t41: "cpu f32[2, 16, 4, 16]"
      # t41 = prims.stride_order(t40, (3, 2, 1, 0))  # t41: "cpu f32[2, 16, 4, 16]"
  del t40
  t42 = Tensor.view(t41, 2, 16, 64)  # t42: "cpu f32[2, 16, 64]"
    # t42 = ltorch.view(t41, 2, 16, 64)  # t42: "cpu f32[2, 16, 64]"
      # t42 = prims.reshape(t41, (2, 16, 64))  # t42: "cpu f32[2, 16, 64]"
  del t41
  t43 = torch.nn.functional.linear(t42, t_attn_c_proj_weight, t_attn_c_proj_bias)  # t43: "cpu f32[2, 16, 64]"
    # t43 = ltorch.linear(t42, t_attn_c_proj_weight, t_attn_c_proj_bias)  # t43: "cpu f32[2, 16, 64]"
      # t43 = prims.linear(t42, t_attn_c_proj_weight, t_attn_c_proj_bias)  # t43: "cpu f32[2, 16, 64]"
  del t_attn_c_proj_bias
  (t44, t58) = fuser_3(x, t43, t_ln_2_weight, t_ln_2_bias)
    # t44 = prims.add(x, t43)  # t44: "cpu f32[2, 16, 64]"
    # (t207, t208) = prims.var_mean(t44, (2,), correction=0)
    # t209 = prims.broadcast_in_dim(t207, [2, 16, 1], (0, 1))  # t209: "cpu f32[2, 16, 1]"
    # t210 = prims.broadcast_in_dim(t208, [2, 16, 1], (0, 1))  # t210: "cpu f32[2, 16, 1]"
    # t211 = prims.add(t209, 1e-05)  # t211: "cpu f32[2, 16, 1]"
    # t212 = prims.rsqrt(t211)  # t212: "cpu f32[2, 16, 1]"
    # t213 = prims.broadcast_in_dim(t210, [2, 16, 64], (0, 1, 2))  # t213: "cpu f32[2, 16, 64]"
    # t214 = prims.sub(t44, t213)  # t214: "cpu f32[2, 16, 64]"
    # t215 = prims.broadcast_in_dim(t212, [2, 16, 64], (0, 1, 2))  # t215: "cpu f32[2, 16, 64]"
    # t216 = prims.mul(t214, t215)  # t216: "cpu f32[2, 16, 64]"
    # t217 = prims.broadcast_in_dim(t_ln_2_weight, [2, 16, 64], (2,))  # t217: "cpu f32[2, 16, 64]"
    # t218 = prims.mul(t216, t217)  # t218: "cpu f32[2, 16, 64]"
    # t219 = prims.broadcast_in_dim(t_ln_2_bias, [2, 16, 64], (2,))  # t219: "cpu f32[2, 16, 64]"
    # t58 = prims.add(t218, t219)  # t58: "cpu f32[2, 16, 64]"
  del t43, t_ln_2_bias
  t59 = torch.nn.functional.linear(t58, t_mlp_c_fc_weight, t_mlp_c_fc_bias)  # t59: "cpu f32[2, 16, 256]"
    # t59 = ltorch.linear(t58, t_mlp_c_fc_weight, t_mlp_c_fc_bias)  # t59: "cpu f32[2, 16, 256]"
      # t59 = prims.linear(t58, t_mlp_c_fc_weight, t_mlp_c_fc_bias)  # t59: "cpu f32[2, 16, 256]"
  del t_mlp_c_fc_bias
  (t68,) = fuser_4(t59)
    # t60 = prims.mul(t59, t59)  # t60: "cpu f32[2, 16, 256]"
    # t61 = prims.mul(t60, t59)  # t61: "cpu f32[2, 16, 256]"
    # t62 = prims.mul(0.044715, t61)  # t62: "cpu f32[2, 16, 256]"
    # t63 = prims.add(t59, t62)  # t63: "cpu f32[2, 16, 256]"
    # t64 = prims.mul(0.7978845608028654, t63)  # t64: "cpu f32[2, 16, 256]"
    # t65 = prims.mul(0.5, t59)  # t65: "cpu f32[2, 16, 256]"
    # t66 = prims.tanh(t64)  # t66: "cpu f32[2, 16, 256]"
    # t67 = prims.add(1.0, t66)  # t67: "cpu f32[2, 16, 256]"
    # t68 = prims.mul(t65, t67)  # t68: "cpu f32[2, 16, 256]"
  t69 = torch.nn.functional.linear(t68, t_mlp_c_proj_weight, t_mlp_c_proj_bias)  # t69: "cpu f32[2, 16, 64]"
    # t69 = ltorch.linear(t68, t_mlp_c_proj_weight, t_mlp_c_proj_bias)  # t69: "cpu f32[2, 16, 64]"
      # t69 = prims.linear(t68, t_mlp_c_proj_weight, t_mlp_c_proj_bias)  # t69: "cpu f32[2, 16, 64]"
  del t68, t_mlp_c_proj_bias
  (t70,) = fuser_5(t44, t69)
    # t70 = prims.add(t44, t69)  # t70: "cpu f32[2, 16, 64]"
  del t69
  return (t70, (x, t_attn_c_attn_weight, t_attn_c_proj_weight, t_ln_2_weight, t_mlp_c_fc_weight, t_mlp_c_proj_weight, t_attn_bias, t13, t21, t23, t24, t38, t42, t44, t58, t59))
