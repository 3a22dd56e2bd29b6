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
  t13 = torch.nn.functional.layer_norm(x, (64,), t_ln_1_weight, t_ln_1_bias, 1e-05)  # t13: "cpu f32[2, 16, 64]"
    # t13 = ltorch.layer_norm(x, (64,), t_ln_1_weight, t_ln_1_bias, 1e-05)  # t13: "cpu f32[2, 16, 64]"
      # (t2, t3) = ltorch.var_mean(x, (2,), None, True, correction=0)
        # (t0, t1) = prims.var_mean(x, (2,), correction=0)
        # t2 = prims.broadcast_in_dim(t0, [2, 16, 1], (0, 1))  # t2: "cpu f32[2, 16, 1]"
        # t3 = prims.broadcast_in_dim(t1, [2, 16, 1], (0, 1))  # t3: "cpu f32[2, 16, 1]"
      # t4 = ltorch.add(t2, 1e-05, alpha=1)  # t4: "cpu f32[2, 16, 1]"
        # t4 = prims.add(t2, 1e-05)  # t4: "cpu f32[2, 16, 1]"
      # t5 = ltorch.rsqrt(t4)  # t5: "cpu f32[2, 16, 1]"
        # t5 = prims.rsqrt(t4)  # t5: "cpu f32[2, 16, 1]"
      # t7 = ltorch.sub(x, t3, alpha=1)  # t7: "cpu f32[2, 16, 64]"
        # t6 = prims.broadcast_in_dim(t3, [2, 16, 64], (0, 1, 2))  # t6: "cpu f32[2, 16, 64]"
        # t7 = prims.sub(x, t6)  # t7: "cpu f32[2, 16, 64]"
      # t9 = ltorch.mul(t7, t5)  # t9: "cpu f32[2, 16, 64]"
        # t8 = prims.broadcast_in_dim(t5, [2, 16, 64], (0, 1, 2))  # t8: "cpu f32[2, 16, 64]"
        # t9 = prims.mul(t7, t8)  # t9: "cpu f32[2, 16, 64]"
      # t11 = ltorch.mul(t9, t_ln_1_weight)  # t11: "cpu f32[2, 16, 64]"
        # t10 = prims.broadcast_in_dim(t_ln_1_weight, [2, 16, 64], (2,))  # t10: "cpu f32[2, 16, 64]"
        # t11 = prims.mul(t9, t10)  # t11: "cpu f32[2, 16, 64]"
      # t13 = ltorch.add(t11, t_ln_1_bias, alpha=1)  # t13: "cpu f32[2, 16, 64]"
        # t12 = prims.broadcast_in_dim(t_ln_1_bias, [2, 16, 64], (2,))  # t12: "cpu f32[2, 16, 64]"
        # t13 = prims.add(t11, t12)  # t13: "cpu f32[2, 16, 64]"
  del t_ln_1_weight, t_ln_1_bias
  t14 = torch.nn.functional.linear(t13, t_attn_c_attn_weight, t_attn_c_attn_bias)  # t14: "cpu f32[2, 16, 192]"
    # t14 = ltorch.linear(t13, t_attn_c_attn_weight, t_attn_c_attn_bias)  # t14: "cpu f32[2, 16, 192]"
      # t14 = prims.linear(t13, t_attn_c_attn_weight, t_attn_c_attn_bias)  # t14: "cpu f32[2, 16, 192]"
  del t13, t_attn_c_attn_weight, t_attn_c_attn_bias
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
  del t21, t24
  t26 = torch.mul(t25, 0.25)  # t26: "cpu f32[2, 4, 16, 16]"
    # t26 = ltorch.mul(t25, 0.25)  # t26: "cpu f32[2, 4, 16, 16]"
      # t26 = prims.mul(t25, 0.25)  # t26: "cpu f32[2, 4, 16, 16]"
  del t25
  t_attn_bias = Tensor.__getitem__(t_attn_bias, (slice(None,None,None), slice(None,None,None), slice(None,16,None), slice(None,16,None)))  # t_attn_bias: "cpu f32[1, 1, 16, 16]"
    # t_attn_bias = ltorch.getitem(t_attn_bias, (slice(None,None,None), slice(None,None,None), slice(None,16,None), slice(None,16,None)))  # t_attn_bias: "cpu f32[1, 1, 16, 16]"
  t27 = torch.eq(t_attn_bias, 0)  # t27: "cpu b8[1, 1, 16, 16]"
    # t27 = ltorch.eq(t_attn_bias, 0)  # t27: "cpu b8[1, 1, 16, 16]"
      # t27 = prims.eq(t_attn_bias, 0.0)  # t27: "cpu b8[1, 1, 16, 16]"
  del t_attn_bias
  t29 = torch.masked_fill(t26, t27, -float('inf'))  # t29: "cpu f32[2, 4, 16, 16]"
    # t29 = ltorch.masked_fill(t26, t27, -float('inf'))  # t29: "cpu f32[2, 4, 16, 16]"
      # t29 = ltorch.where(t27, -float('inf'), t26)  # t29: "cpu f32[2, 4, 16, 16]"
        # t28 = prims.broadcast_in_dim(t27, [2, 4, 16, 16], (0, 1, 2, 3))  # t28: "cpu b8[2, 4, 16, 16]"
        # t29 = prims.where(t28, -float('inf'), t26)  # t29: "cpu f32[2, 4, 16, 16]"
  del t26, t27
  t38 = torch.softmax(t29, -1)  # t38: "cpu f32[2, 4, 16, 16]"
    # t38 = ltorch.softmax(t29, -1, dtype=None)  # t38: "cpu f32[2, 4, 16, 16]"
      # t31 = ltorch.amax(t29, (-1,), True)  # t31: "cpu f32[2, 4, 16, 1]"
        # t30 = prims.amax(t29, (3,))  # t30: "cpu f32[2, 4, 16]"
        # t31 = prims.broadcast_in_dim(t30, [2, 4, 16, 1], (0, 1, 2))  # t31: "cpu f32[2, 4, 16, 1]"
      # t33 = ltorch.sub(t29, t31, alpha=1)  # t33: "cpu f32[2, 4, 16, 16]"
        # t32 = prims.broadcast_in_dim(t31, [2, 4, 16, 16], (0, 1, 2, 3))  # t32: "cpu f32[2, 4, 16, 16]"
        # t33 = prims.sub(t29, t32)  # t33: "cpu f32[2, 4, 16, 16]"
      # t34 = ltorch.exp(t33)  # t34: "cpu f32[2, 4, 16, 16]"
        # t34 = prims.exp(t33)  # t34: "cpu f32[2, 4, 16, 16]"
      # t36 = ltorch.sum(t34, (-1,), True, dtype=None)  # t36: "cpu f32[2, 4, 16, 1]"
        # t35 = prims.sum(t34, (3,))  # t35: "cpu f32[2, 4, 16]"
        # t36 = prims.broadcast_in_dim(t35, [2, 4, 16, 1], (0, 1, 2))  # t36: "cpu f32[2, 4, 16, 1]"
      # t38 = ltorch.true_divide(t34, t36)  # t38: "cpu f32[2, 4, 16, 16]"
        # t37 = prims.broadcast_in_dim(t36, [2, 4, 16, 16], (0, 1, 2, 3))  # t37: "cpu f32[2, 4, 16, 16]"
        # t38 = prims.div(t34, t37)  # t38: "cpu f32[2, 4, 16, 16]"
  del t29
  t39 = torch.matmul(t38, t23)  # t39: "cpu f32[2, 4, 16, 16]"
    # t39 = ltorch.matmul(t38, t23)  # t39: "cpu f32[2, 4, 16, 16]"
      # t39 = prims.matmul(t38, t23)  # t39: "cpu f32[2, 4, 16, 16]"
  del t38, t23
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
  del t42, t_attn_c_proj_weight, t_attn_c_proj_bias
  t44 = torch.add(x, t43)  # t44: "cpu f32[2, 16, 64]"
    # t44 = ltorch.add(x, t43, alpha=1)  # t44: "cpu f32[2, 16, 64]"
      # t44 = prims.add(x, t43)  # t44: "cpu f32[2, 16, 64]"
  del x, t43
  t58 = torch.nn.functional.layer_norm(t44, (64,), t_ln_2_weight, t_ln_2_bias, 1e-05)  # t58: "cpu f32[2, 16, 64]"
    # t58 = ltorch.layer_norm(t44, (64,), t_ln_2_weight, t_ln_2_bias, 1e-05)  # t58: "cpu f32[2, 16, 64]"
      # (t47, t48) = ltorch.var_mean(t44, (2,), None, True, correction=0)
        # (t45, t46) = prims.var_mean(t44, (2,), correction=0)
        # t47 = prims.broadcast_in_dim(t45, [2, 16, 1], (0, 1))  # t47: "cpu f32[2, 16, 1]"
        # t48 = prims.broadcast_in_dim(t46, [2, 16, 1], (0, 1))  # t48: "cpu f32[2, 16, 1]"
      # t49 = ltorch.add(t47, 1e-05, alpha=1)  # t49: "cpu f32[2, 16, 1]"
        # t49 = prims.add(t47, 1e-05)  # t49: "cpu f32[2, 16, 1]"
      # t50 = ltorch.rsqrt(t49)  # t50: "cpu f32[2, 16, 1]"
        # t50 = prims.rsqrt(t49)  # t50: "cpu f32[2, 16, 1]"
      # t52 = ltorch.sub(t44, t48, alpha=1)  # t52: "cpu f32[2, 16, 64]"
        # t51 = prims.broadcast_in_dim(t48, [2, 16, 64], (0, 1, 2))  # t51: "cpu f32[2, 16, 64]"
        # t52 = prims.sub(t44, t51)  # t52: "cpu f32[2, 16, 64]"
      # t54 = ltorch.mul(t52, t50)  # t54: "cpu f32[2, 16, 64]"
        # t53 = prims.broadcast_in_dim(t50, [2, 16, 64], (0, 1, 2))  # t53: "cpu f32[2, 16, 64]"
        # t54 = prims.mul(t52, t53)  # t54: "cpu f32[2, 16, 64]"
      # t56 = ltorch.mul(t54, t_ln_2_weight)  # t56: "cpu f32[2, 16, 64]"
        # t55 = prims.broadcast_in_dim(t_ln_2_weight, [2, 16, 64], (2,))  # t55: "cpu f32[2, 16, 64]"
        # t56 = prims.mul(t54, t55)  # t56: "cpu f32[2, 16, 64]"
      # t58 = ltorch.add(t56, t_ln_2_bias, alpha=1)  # t58: "cpu f32[2, 16, 64]"
        # t57 = prims.broadcast_in_dim(t_ln_2_bias, [2, 16, 64], (2,))  # t57: "cpu f32[2, 16, 64]"
        # t58 = prims.add(t56, t57)  # t58: "cpu f32[2, 16, 64]"
  del t_ln_2_weight, t_ln_2_bias
  t59 = torch.nn.functional.linear(t58, t_mlp_c_fc_weight, t_mlp_c_fc_bias)  # t59: "cpu f32[2, 16, 256]"
    # t59 = ltorch.linear(t58, t_mlp_c_fc_weight, t_mlp_c_fc_bias)  # t59: "cpu f32[2, 16, 256]"
      # t59 = prims.linear(t58, t_mlp_c_fc_weight, t_mlp_c_fc_bias)  # t59: "cpu f32[2, 16, 256]"
  del t58, t_mlp_c_fc_weight, t_mlp_c_fc_bias
  t68 = torch.nn.functional.gelu(t59, approximate='tanh')  # t68: "cpu f32[2, 16, 256]"
    # t68 = ltorch.gelu(t59, approximate='tanh')  # t68: "cpu f32[2, 16, 256]"
      # t60 = ltorch.mul(t59, t59)  # t60: "cpu f32[2, 16, 256]"
        # t60 = prims.mul(t59, t59)  # t60: "cpu f32[2, 16, 256]"
      # t61 = ltorch.mul(t60, t59)  # t61: "cpu f32[2, 16, 256]"
        # t61 = prims.mul(t60, t59)  # t61: "cpu f32[2, 16, 256]"
      # t62 = ltorch.mul(0.044715, t61)  # t62: "cpu f32[2, 16, 256]"
        # t62 = prims.mul(0.044715, t61)  # t62: "cpu f32[2, 16, 256]"
      # t63 = ltorch.add(t59, t62, alpha=1)  # t63: "cpu f32[2, 16, 256]"
        # t63 = prims.add(t59, t62)  # t63: "cpu f32[2, 16, 256]"
      # t64 = ltorch.mul(0.7978845608028654, t63)  # t64: "cpu f32[2, 16, 256]"
        # t64 = prims.mul(0.7978845608028654, t63)  # t64: "cpu f32[2, 16, 256]"
      # t65 = ltorch.tanh(t64)  # t65: "cpu f32[2, 16, 256]"
        # t65 = prims.tanh(t64)  # t65: "cpu f32[2, 16, 256]"
      # t66 = ltorch.add(1.0, t65, alpha=1)  # t66: "cpu f32[2, 16, 256]"
        # t66 = prims.add(1.0, t65)  # t66: "cpu f32[2, 16, 256]"
      # t67 = ltorch.mul(0.5, t59)  # t67: "cpu f32[2, 16, 256]"
        # t67 = prims.mul(0.5, t59)  # t67: "cpu f32[2, 16, 256]"
      # t68 = ltorch.mul(t67, t66)  # t68: "cpu f32[2, 16, 256]"
        # t68 = prims.mul(t67, t66)  # t68: "cpu f32[2, 16, 256]"
  del t59
  t69 = torch.nn.functional.linear(t68, t_mlp_c_proj_weight, t_mlp_c_proj_bias)  # t69: "cpu f32[2, 16, 64]"
    # t69 = ltorch.linear(t68, t_mlp_c_proj_weight, t_mlp_c_proj_bias)  # t69: "cpu f32[2, 16, 64]"
      # t69 = prims.linear(t68, t_mlp_c_proj_weight, t_mlp_c_proj_bias)  # t69: "cpu f32[2, 16, 64]"
  del t68, t_mlp_c_proj_weight, t_mlp_c_proj_bias
  t70 = torch.add(t44, t69)  # t70: "cpu f32[2, 16, 64]"
    # t70 = ltorch.add(t44, t69, alpha=1)  # t70: "cpu f32[2, 16, 64]"
      # t70 = prims.add(t44, t69)  # t70: "cpu f32[2, 16, 64]"
  del t44, t69
  return t70
