# Constructed by Delete Last Used
import thunder.executors.torchex as torchex
import torch
from thunder.executors.torchex import no_autocast

@torch.no_grad()
@no_autocast
def backward_fn(saved_for_backward, cotangents):
  # saved_for_backward: "Collection"
  # x: "cpu f32[2, 16, 64]"
  # t_attn_c_attn_weight: "cpu f32[192, 64]"
  # t_attn_c_proj_weight: "cpu f32[64, 64]"
  # t_ln_2_weight: "cpu f32[64]"
  # t_mlp_c_fc_weight: "cpu f32[256, 64]"
  # t_mlp_c_proj_weight: "cpu f32[64, 256]"
  # t_attn_bias: "cpu f32[1, 1, 16, 16]"
  # t_ln_1_layer_norm_0: "cpu f32[2, 16, 64]"
  # t_attn_transpose_1: "cpu f32[2, 4, 16, 16]"
  # t_attn_transpose_2: "cpu f32[2, 4, 16, 16]"
  # t_attn_transpose_3: "cpu f32[2, 4, 16, 16]"
  # t_attn_softmax_0: "cpu f32[2, 4, 16, 16]"
  # t_attn_view_3: "cpu f32[2, 16, 64]"
  # t_add_0: "cpu f32[2, 16, 64]"
  # t_ln_2_layer_norm_0: "cpu f32[2, 16, 64]"
  # t_mlp_c_fc_linear_0: "cpu f32[2, 16, 256]"
  x, t_attn_c_attn_weight, t_attn_c_proj_weight, t_ln_2_weight, t_mlp_c_fc_weight, t_mlp_c_proj_weight, t_attn_bias, t_ln_1_layer_norm_0, t_attn_transpose_1, t_attn_transpose_2, t_attn_transpose_3, t_attn_softmax_0, t_attn_view_3, t_add_0, t_ln_2_layer_norm_0, t_mlp_c_fc_linear_0, = saved_for_backward
  # cotangents: "Collection"
  # t_cotangent_0: "cpu f32[2, 16, 64]"
  t_cotangent_0, = cotangents
  t_grad_mlp_gelu_0 = torch.matmul(t_cotangent_0, t_mlp_c_proj_weight)  # t_grad_mlp_gelu_0: "cpu f32[2, 16, 256]"
    # t_grad_mlp_gelu_0 = ltorch.matmul(t_cotangent_0, t_mlp_c_proj_weight)  # t_grad_mlp_gelu_0: "cpu f32[2, 16, 256]"
      # t_mlp_c_proj_linear_0_3 = ltorch.reshape(t_cotangent_0, (32, 64))  # t_mlp_c_proj_linear_0_3: "cpu f32[32, 64]"
        # t_mlp_c_proj_linear_0_3 = prims.reshape(t_cotangent_0, (32, 64))  # t_mlp_c_proj_linear_0_3: "cpu f32[32, 64]"
      # t_mlp_c_proj_linear_0_4 = prims.matmul(t_mlp_c_proj_linear_0_3, t_mlp_c_proj_weight)  # t_mlp_c_proj_linear_0_4: "cpu f32[32, 256]"
      # t_grad_mlp_gelu_0 = ltorch.reshape(t_mlp_c_proj_linear_0_4, (2, 16, 256))  # t_grad_mlp_gelu_0: "cpu f32[2, 16, 256]"
        # t_grad_mlp_gelu_0 = prims.reshape(t_mlp_c_proj_linear_0_4, (2, 16, 256))  # t_grad_mlp_gelu_0: "cpu f32[2, 16, 256]"
  del t_mlp_c_proj_weight
  t_mlp_c_proj_linear_0_6 = torchex.reshape(t_cotangent_0, (32, 64))  # t_mlp_c_proj_linear_0_6: "cpu f32[32, 64]"
    # t_mlp_c_proj_linear_0_6 = prims.reshape(t_cotangent_0, (32, 64))  # t_mlp_c_proj_linear_0_6: "cpu f32[32, 64]"
  t_mlp_c_proj_linear_0_7 = torchex.transpose(t_mlp_c_proj_linear_0_6, (1, 0))  # t_mlp_c_proj_linear_0_7: "cpu f32[64, 32]"
    # t_mlp_c_proj_linear_0_7 = prims.transpose(t_mlp_c_proj_linear_0_6, (1, 0))  # t_mlp_c_proj_linear_0_7: "cpu f32[64, 32]"
  (t_mlp_gelu_0,) = fuser_mlp_gelu_0_0_1(t_mlp_c_fc_linear_0)
    # t_mlp_gelu_0_0 = prims.mul(t_mlp_c_fc_linear_0, t_mlp_c_fc_linear_0)  # t_mlp_gelu_0_0: "cpu f32[2, 16, 256]"
    # t_mlp_gelu_0_1 = prims.mul(t_mlp_gelu_0_0, t_mlp_c_fc_linear_0)  # t_mlp_gelu_0_1: "cpu f32[2, 16, 256]"
    # t_mlp_gelu_0_2 = prims.mul(0.044715, t_mlp_gelu_0_1)  # t_mlp_gelu_0_2: "cpu f32[2, 16, 256]"
    # t_mlp_gelu_0_3 = prims.add(t_mlp_c_fc_linear_0, t_mlp_gelu_0_2)  # t_mlp_gelu_0_3: "cpu f32[2, 16, 256]"
    # t_mlp_gelu_0_4 = prims.mul(0.7978845608028654, t_mlp_gelu_0_3)  # t_mlp_gelu_0_4: "cpu f32[2, 16, 256]"
    # t_mlp_gelu_0_5 = prims.mul(0.5, t_mlp_c_fc_linear_0)  # t_mlp_gelu_0_5: "cpu f32[2, 16, 256]"
    # t_mlp_gelu_0_6 = prims.tanh(t_mlp_gelu_0_4)  # t_mlp_gelu_0_6: "cpu f32[2, 16, 256]"
    # t_mlp_gelu_0_7 = prims.add(1.0, t_mlp_gelu_0_6)  # t_mlp_gelu_0_7: "cpu f32[2, 16, 256]"
    # t_mlp_gelu_0 = prims.mul(t_mlp_gelu_0_5, t_mlp_gelu_0_7)  # t_mlp_gelu_0: "cpu f32[2, 16, 256]"
  t_mlp_c_proj_linear_0_8 = torchex.reshape(t_mlp_gelu_0, (32, 256))  # t_mlp_c_proj_linear_0_8: "cpu f32[32, 256]"
    # t_mlp_c_proj_linear_0_8 = prims.reshape(t_mlp_gelu_0, (32, 256))  # t_mlp_c_proj_linear_0_8: "cpu f32[32, 256]"
  del t_mlp_gelu_0
  t_grad_mlp_c_proj_weight = torchex.matmul(t_mlp_c_proj_linear_0_7, t_mlp_c_proj_linear_0_8)  # t_grad_mlp_c_proj_weight: "cpu f32[64, 256]"
    # t_grad_mlp_c_proj_weight = prims.matmul(t_mlp_c_proj_linear_0_7, t_mlp_c_proj_linear_0_8)  # t_grad_mlp_c_proj_weight: "cpu f32[64, 256]"
  del t_mlp_c_proj_linear_0_7, t_mlp_c_proj_linear_0_8
  t_grad_mlp_c_proj_bias = torchex.sum(t_mlp_c_proj_linear_0_6, (0,))  # t_grad_mlp_c_proj_bias: "cpu f32[64]"
    # t_grad_mlp_c_proj_bias = prims.sum(t_mlp_c_proj_linear_0_6, (0,))  # t_grad_mlp_c_proj_bias: "cpu f32[64]"
  del t_mlp_c_proj_linear_0_6
  (t_grad_mlp_c_fc_linear_0,) = fuser_mlp_gelu_0_0_2(t_mlp_c_fc_linear_0, t_grad_mlp_gelu_0)
    # t_mlp_gelu_0_0 = prims.mul(t_mlp_c_fc_linear_0, t_mlp_c_fc_linear_0)  # t_mlp_gelu_0_0: "cpu f32[2, 16, 256]"
    # t_mlp_gelu_0_1 = prims.mul(t_mlp_gelu_0_0, t_mlp_c_fc_linear_0)  # t_mlp_gelu_0_1: "cpu f32[2, 16, 256]"
    # t_mlp_gelu_0_2 = prims.mul(0.044715, t_mlp_gelu_0_1)  # t_mlp_gelu_0_2: "cpu f32[2, 16, 256]"
    # t_mlp_gelu_0_3 = prims.add(t_mlp_c_fc_linear_0, t_mlp_gelu_0_2)  # t_mlp_gelu_0_3: "cpu f32[2, 16, 256]"
    # t_mlp_gelu_0_4 = prims.mul(0.7978845608028654, t_mlp_gelu_0_3)  # t_mlp_gelu_0_4: "cpu f32[2, 16, 256]"
    # t_mlp_gelu_0_6 = prims.tanh(t_mlp_gelu_0_4)  # t_mlp_gelu_0_6: "cpu f32[2, 16, 256]"
    # t_mlp_gelu_0_5 = prims.mul(0.5, t_mlp_c_fc_linear_0)  # t_mlp_gelu_0_5: "cpu f32[2, 16, 256]"
    # t_mlp_gelu_0_7 = prims.add(1.0, t_mlp_gelu_0_6)  # t_mlp_gelu_0_7: "cpu f32[2, 16, 256]"
    # t_mlp_gelu_0_37 = prims.mul(t_grad_mlp_gelu_0, t_mlp_gelu_0_7)  # t_mlp_gelu_0_37: "cpu f32[2, 16, 256]"
    # t_mlp_gelu_0_38 = prims.mul(t_grad_mlp_gelu_0, t_mlp_gelu_0_5)  # t_mlp_gelu_0_38: "cpu f32[2, 16, 256]"
    # t_mlp_gelu_0_30 = prims.mul(t_mlp_gelu_0_6, t_mlp_gelu_0_6)  # t_mlp_gelu_0_30: "cpu f32[2, 16, 256]"
    # t_mlp_gelu_0_31 = prims.sub(1.0, t_mlp_gelu_0_30)  # t_mlp_gelu_0_31: "cpu f32[2, 16, 256]"
    # t_mlp_gelu_0_32 = prims.mul(t_mlp_gelu_0_38, t_mlp_gelu_0_31)  # t_mlp_gelu_0_32: "cpu f32[2, 16, 256]"
    # t_mlp_gelu_0_27 = prims.mul(t_mlp_gelu_0_37, 0.5)  # t_mlp_gelu_0_27: "cpu f32[2, 16, 256]"
    # t_mlp_gelu_0_24 = prims.mul(t_mlp_gelu_0_32, 0.7978845608028654)  # t_mlp_gelu_0_24: "cpu f32[2, 16, 256]"
    # t_mlp_gelu_0_39 = prims.add(t_mlp_gelu_0_27, t_mlp_gelu_0_24)  # t_mlp_gelu_0_39: "cpu f32[2, 16, 256]"
    # t_mlp_gelu_0_19 = prims.mul(t_mlp_gelu_0_24, 0.044715)  # t_mlp_gelu_0_19: "cpu f32[2, 16, 256]"
    # t_mlp_gelu_0_15 = prims.mul(t_mlp_gelu_0_19, t_mlp_c_fc_linear_0)  # t_mlp_gelu_0_15: "cpu f32[2, 16, 256]"
    # t_mlp_gelu_0_16 = prims.mul(t_mlp_gelu_0_19, t_mlp_gelu_0_0)  # t_mlp_gelu_0_16: "cpu f32[2, 16, 256]"
    # t_mlp_gelu_0_40 = prims.add(t_mlp_gelu_0_39, t_mlp_gelu_0_16)  # t_mlp_gelu_0_40: "cpu f32[2, 16, 256]"
    # t_mlp_gelu_0_11 = prims.mul(t_mlp_gelu_0_15, t_mlp_c_fc_linear_0)  # t_mlp_gelu_0_11: "cpu f32[2, 16, 256]"
    # t_mlp_gelu_0_41 = prims.add(t_mlp_gelu_0_40, t_mlp_gelu_0_11)  # t_mlp_gelu_0_41: "cpu f32[2, 16, 256]"
    # t_grad_mlp_c_fc_linear_0 = prims.add(t_mlp_gelu_0_41, t_mlp_gelu_0_11)  # t_grad_mlp_c_fc_linear_0: "cpu f32[2, 16, 256]"
  del t_mlp_c_fc_linear_0, t_grad_mlp_gelu_0
  t_grad_ln_2_layer_norm_0 = torch.matmul(t_grad_mlp_c_fc_linear_0, t_mlp_c_fc_weight)  # t_grad_ln_2_layer_norm_0: "cpu f32[2, 16, 64]"
    # t_grad_ln_2_layer_norm_0 = ltorch.matmul(t_grad_mlp_c_fc_linear_0, t_mlp_c_fc_weight)  # t_grad_ln_2_layer_norm_0: "cpu f32[2, 16, 64]"
      # t_mlp_c_fc_linear_0_3 = ltorch.reshape(t_grad_mlp_c_fc_linear_0, (32, 256))  # t_mlp_c_fc_linear_0_3: "cpu f32[32, 256]"
        # t_mlp_c_fc_linear_0_3 = prims.reshape(t_grad_mlp_c_fc_linear_0, (32, 256))  # t_mlp_c_fc_linear_0_3: "cpu f32[32, 256]"
      # t_mlp_c_fc_linear_0_4 = prims.matmul(t_mlp_c_fc_linear_0_3, t_mlp_c_fc_weight)  # t_mlp_c_fc_linear_0_4: "cpu f32[32, 64]"
      # t_grad_ln_2_layer_norm_0 = ltorch.reshape(t_mlp_c_fc_linear_0_4, (2, 16, 64))  # t_grad_ln_2_layer_norm_0: "cpu f32[2, 16, 64]"
        # t_grad_ln_2_layer_norm_0 = prims.reshape(t_mlp_c_fc_linear_0_4, (2, 16, 64))  # t_grad_ln_2_layer_norm_0: "cpu f32[2, 16, 64]"
  del t_mlp_c_fc_weight
  t_mlp_c_fc_linear_0_6 = torchex.reshape(t_grad_mlp_c_fc_linear_0, (32, 256))  # t_mlp_c_fc_linear_0_6: "cpu f32[32, 256]"
    # t_mlp_c_fc_linear_0_6 = prims.reshape(t_grad_mlp_c_fc_linear_0, (32, 256))  # t_mlp_c_fc_linear_0_6: "cpu f32[32, 256]"
  del t_grad_mlp_c_fc_linear_0
  t_mlp_c_fc_linear_0_7 = torchex.transpose(t_mlp_c_fc_linear_0_6, (1, 0))  # t_mlp_c_fc_linear_0_7: "cpu f32[256, 32]"
    # t_mlp_c_fc_linear_0_7 = prims.transpose(t_mlp_c_fc_linear_0_6, (1, 0))  # t_mlp_c_fc_linear_0_7: "cpu f32[256, 32]"
  t_mlp_c_fc_linear_0_8 = torchex.reshape(t_ln_2_layer_norm_0, (32, 64))  # t_mlp_c_fc_linear_0_8: "cpu f32[32, 64]"
    # t_mlp_c_fc_linear_0_8 = prims.reshape(t_ln_2_layer_norm_0, (32, 64))  # t_mlp_c_fc_linear_0_8: "cpu f32[32, 64]"
  del t_ln_2_layer_norm_0
  t_grad_mlp_c_fc_weight = torchex.matmul(t_mlp_c_fc_linear_0_7, t_mlp_c_fc_linear_0_8)  # t_grad_mlp_c_fc_weight: "cpu f32[256, 64]"
    # t_grad_mlp_c_fc_weight = prims.matmul(t_mlp_c_fc_linear_0_7, t_mlp_c_fc_linear_0_8)  # t_grad_mlp_c_fc_weight: "cpu f32[256, 64]"
  del t_mlp_c_fc_linear_0_7, t_mlp_c_fc_linear_0_8
  t_grad_mlp_c_fc_bias = torchex.sum(t_mlp_c_fc_linear_0_6, (0,))  # t_grad_mlp_c_fc_bias: "cpu f32[256]"
    # t_grad_mlp_c_fc_bias = prims.sum(t_mlp_c_fc_linear_0_6, (0,))  # t_grad_mlp_c_fc_bias: "cpu f32[256]"
  del t_mlp_c_fc_linear_0_6
  (t_grad_attn_c_proj_linear_0, t_ln_2_layer_norm_0_55) = fuser_ln_2_layer_norm_0_29(t_add_0, t_ln_2_weight, t_grad_ln_2_layer_norm_0, t_cotangent_0)
    # (t_ln_2_layer_norm_0_29, t_ln_2_layer_norm_0_30) = prims.var_mean(t_add_0, (2,), correction=0)
    # t_ln_2_layer_norm_0_31 = prims.broadcast_in_dim(t_ln_2_layer_norm_0_29, [2, 16, 1], (0, 1))  # t_ln_2_layer_norm_0_31: "cpu f32[2, 16, 1]"
    # t_ln_2_layer_norm_0_32 = prims.broadcast_in_dim(t_ln_2_layer_norm_0_30, [2, 16, 1], (0, 1))  # t_ln_2_layer_norm_0_32: "cpu f32[2, 16, 1]"
    # t_ln_2_layer_norm_0_33 = prims.add(t_ln_2_layer_norm_0_31, 1e-05)  # t_ln_2_layer_norm_0_33: "cpu f32[2, 16, 1]"
    # t_ln_2_layer_norm_0_34 = prims.rsqrt(t_ln_2_layer_norm_0_33)  # t_ln_2_layer_norm_0_34: "cpu f32[2, 16, 1]"
    # t_ln_2_layer_norm_0_35 = prims.broadcast_in_dim(t_ln_2_layer_norm_0_32, [2, 16, 64], (0, 1, 2))  # t_ln_2_layer_norm_0_35: "cpu f32[2, 16, 64]"
    # t_ln_2_layer_norm_0_36 = prims.sub(t_add_0, t_ln_2_layer_norm_0_35)  # t_ln_2_layer_norm_0_36: "cpu f32[2, 16, 64]"
    # t_ln_2_layer_norm_0_37 = prims.broadcast_in_dim(t_ln_2_layer_norm_0_34, [2, 16, 64], (0, 1, 2))  # t_ln_2_layer_norm_0_37: "cpu f32[2, 16, 64]"
    # t_ln_2_layer_norm_0_38 = prims.mul(t_ln_2_layer_norm_0_36, t_ln_2_layer_norm_0_37)  # t_ln_2_layer_norm_0_38: "cpu f32[2, 16, 64]"
    # t_ln_2_layer_norm_0_39 = prims.broadcast_in_dim(t_ln_2_weight, [2, 16, 64], (2,))  # t_ln_2_layer_norm_0_39: "cpu f32[2, 16, 64]"
    # t_ln_2_layer_norm_0_40 = prims.mul(t_grad_ln_2_layer_norm_0, t_ln_2_layer_norm_0_39)  # t_ln_2_layer_norm_0_40: "cpu f32[2, 16, 64]"
    # t_ln_2_layer_norm_0_41 = prims.sum(t_ln_2_layer_norm_0_40, (2,))  # t_ln_2_layer_norm_0_41: "cpu f32[2, 16]"
    # t_ln_2_layer_norm_0_42 = prims.div(t_ln_2_layer_norm_0_41, 64.0)  # t_ln_2_layer_norm_0_42: "cpu f32[2, 16]"
    # t_ln_2_layer_norm_0_43 = prims.broadcast_in_dim(t_ln_2_layer_norm_0_42, [2, 16, 1], (0, 1))  # t_ln_2_layer_norm_0_43: "cpu f32[2, 16, 1]"
    # t_ln_2_layer_norm_0_44 = prims.mul(t_ln_2_layer_norm_0_40, t_ln_2_layer_norm_0_38)  # t_ln_2_layer_norm_0_44: "cpu f32[2, 16, 64]"
    # t_ln_2_layer_norm_0_45 = prims.sum(t_ln_2_layer_norm_0_44, (2,))  # t_ln_2_layer_norm_0_45: "cpu f32[2, 16]"
    # t_ln_2_layer_norm_0_46 = prims.div(t_ln_2_layer_norm_0_45, 64.0)  # t_ln_2_layer_norm_0_46: "cpu f32[2, 16]"
    # t_ln_2_layer_norm_0_47 = prims.broadcast_in_dim(t_ln_2_layer_norm_0_46, [2, 16, 1], (0, 1))  # t_ln_2_layer_norm_0_47: "cpu f32[2, 16, 1]"
    # t_ln_2_layer_norm_0_48 = prims.broadcast_in_dim(t_ln_2_layer_norm_0_43, [2, 16, 64], (0, 1, 2))  # t_ln_2_layer_norm_0_48: "cpu f32[2, 16, 64]"
    # t_ln_2_layer_norm_0_49 = prims.sub(t_ln_2_layer_norm_0_40, t_ln_2_layer_norm_0_48)  # t_ln_2_layer_norm_0_49: "cpu f32[2, 16, 64]"
    # t_ln_2_layer_norm_0_50 = prims.broadcast_in_dim(t_ln_2_layer_norm_0_47, [2, 16, 64], (0, 1, 2))  # t_ln_2_layer_norm_0_50: "cpu f32[2, 16, 64]"
    # t_ln_2_layer_norm_0_51 = prims.mul(t_ln_2_layer_norm_0_38, t_ln_2_layer_norm_0_50)  # t_ln_2_layer_norm_0_51: "cpu f32[2, 16, 64]"
    # t_ln_2_layer_norm_0_52 = prims.sub(t_ln_2_layer_norm_0_49, t_ln_2_layer_norm_0_51)  # t_ln_2_layer_norm_0_52: "cpu f32[2, 16, 64]"
    # t_ln_2_layer_norm_0_54 = prims.mul(t_ln_2_layer_norm_0_37, t_ln_2_layer_norm_0_52)  # t_ln_2_layer_norm_0_54: "cpu f32[2, 16, 64]"
    # t_grad_attn_c_proj_linear_0 = prims.add(t_cotangent_0, t_ln_2_layer_norm_0_54)  # t_grad_attn_c_proj_linear_0: "cpu f32[2, 16, 64]"
    # t_ln_2_layer_norm_0_55 = prims.mul(t_grad_ln_2_layer_norm_0, t_ln_2_layer_norm_0_38)  # t_ln_2_layer_norm_0_55: "cpu f32[2, 16, 64]"
  del t_add_0, t_ln_2_weight, t_cotangent_0
  t_grad_ln_2_weight = torch.sum(t_ln_2_layer_norm_0_55, (0, 1), False)  # t_grad_ln_2_weight: "cpu f32[64]"
    # t_grad_ln_2_weight = ltorch.sum(t_ln_2_layer_norm_0_55, (0, 1), False, dtype=None)  # t_grad_ln_2_weight: "cpu f32[64]"
      # t_grad_ln_2_weight = prims.sum(t_ln_2_layer_norm_0_55, (0, 1))  # t_grad_ln_2_weight: "cpu f32[64]"
  del t_ln_2_layer_norm_0_55
  t_grad_ln_2_bias = torch.sum(t_grad_ln_2_layer_norm_0, (0, 1), False)  # t_grad_ln_2_bias: "cpu f32[64]"
    # t_grad_ln_2_bias = ltorch.sum(t_grad_ln_2_layer_norm_0, (0, 1), False, dtype=None)  # t_grad_ln_2_bias: "cpu f32[64]"
      # t_grad_ln_2_bias = prims.sum(t_grad_ln_2_layer_norm_0, (0, 1))  # t_grad_ln_2_bias: "cpu f32[64]"
  del t_grad_ln_2_layer_norm_0
  t_grad_attn_view_3 = torch.matmul(t_grad_attn_c_proj_linear_0, t_attn_c_proj_weight)  # t_grad_attn_view_3: "cpu f32[2, 16, 64]"
    # t_grad_attn_view_3 = ltorch.matmul(t_grad_attn_c_proj_linear_0, t_attn_c_proj_weight)  # t_grad_attn_view_3: "cpu f32[2, 16, 64]"
      # t_attn_c_proj_linear_0_3 = ltorch.reshape(t_grad_attn_c_proj_linear_0, (32, 64))  # t_attn_c_proj_linear_0_3: "cpu f32[32, 64]"
        # t_attn_c_proj_linear_0_3 = prims.reshape(t_grad_attn_c_proj_linear_0, (32, 64))  # t_attn_c_proj_linear_0_3: "cpu f32[32, 64]"
      # t_attn_c_proj_linear_0_4 = prims.matmul(t_attn_c_proj_linear_0_3, t_attn_c_proj_weight)  # t_attn_c_proj_linear_0_4: "cpu f32[32, 64]"
      # t_grad_attn_view_3 = ltorch.reshape(t_attn_c_proj_linear_0_4, (2, 16, 64))  # t_grad_attn_view_3: "cpu f32[2, 16, 64]"
        # t_grad_attn_view_3 = prims.reshape(t_attn_c_proj_linear_0_4, (2, 16, 64))  # t_grad_attn_view_3: "cpu f32[2, 16, 64]"
  del t_attn_c_proj_weight
  t_attn_c_proj_linear_0_6 = torchex.reshape(t_grad_attn_c_proj_linear_0, (32, 64))  # t_attn_c_proj_linear_0_6: "cpu f32[32, 64]"
    # t_attn_c_proj_linear_0_6 = prims.reshape(t_grad_attn_c_proj_linear_0, (32, 64))  # t_attn_c_proj_linear_0_6: "cpu f32[32, 64]"
  del t_grad_attn_c_proj_linear_0
  t_attn_c_proj_linear_0_7 = torchex.transpose(t_attn_c_proj_linear_0_6, (1, 0))  # t_attn_c_proj_linear_0_7: "cpu f32[64, 32]"
    # t_attn_c_proj_linear_0_7 = prims.transpose(t_attn_c_proj_linear_0_6, (1, 0))  # t_attn_c_proj_linear_0_7: "cpu f32[64, 32]"
  t_attn_c_proj_linear_0_8 = torchex.reshape(t_attn_view_3, (32, 64))  # t_attn_c_proj_linear_0_8: "cpu f32[32, 64]"
    # t_attn_c_proj_linear_0_8 = prims.reshape(t_attn_view_3, (32, 64))  # t_attn_c_proj_linear_0_8: "cpu f32[32, 64]"
  del t_attn_view_3
  t_grad_attn_c_proj_weight = torchex.matmul(t_attn_c_proj_linear_0_7, t_attn_c_proj_linear_0_8)  # t_grad_attn_c_proj_weight: "cpu f32[64, 64]"
    # t_grad_attn_c_proj_weight = prims.matmul(t_attn_c_proj_linear_0_7, t_attn_c_proj_linear_0_8)  # t_grad_attn_c_proj_weight: "cpu f32[64, 64]"
  del t_attn_c_proj_linear_0_7, t_attn_c_proj_linear_0_8
  t_grad_attn_c_proj_bias = torchex.sum(t_attn_c_proj_linear_0_6, (0,))  # t_grad_attn_c_proj_bias: "cpu f32[64]"
    # t_grad_attn_c_proj_bias = prims.sum(t_attn_c_proj_linear_0_6, (0,))  # t_grad_attn_c_proj_bias: "cpu f32[64]"
  del t_attn_c_proj_linear_0_6
  t_grad_attn_transpose_4 = torchex.reshape(t_grad_attn_view_3, (2, 16, 4, 16))  # t_grad_attn_transpose_4: "cpu f32[2, 16, 4, 16]"
    # t_grad_attn_transpose_4 = prims.reshape(t_grad_attn_view_3, (2, 16, 4, 16))  # t_grad_attn_transpose_4: "cpu f32[2, 16, 4, 16]"
  del t_grad_attn_view_3
  t_grad_attn_matmul_1 = torchex.transpose(t_grad_attn_transpose_4, (0, 2, 1, 3))  # t_grad_attn_matmul_1: "cpu f32[2, 4, 16, 16]"
    # t_grad_attn_matmul_1 = prims.transpose(t_grad_attn_transpose_4, (0, 2, 1, 3))  # t_grad_attn_matmul_1: "cpu f32[2, 4, 16, 16]"
  del t_grad_attn_transpose_4
  t_attn_matmul_1_3 = torchex.transpose(t_attn_transpose_2, (0, 1, 3, 2))  # t_attn_matmul_1_3: "cpu f32[2, 4, 16, 16]"
    # t_attn_matmul_1_3 = prims.transpose(t_attn_transpose_2, (0, 1, 3, 2))  # t_attn_matmul_1_3: "cpu f32[2, 4, 16, 16]"
  del t_attn_transpose_2
  t_grad_attn_softmax_0 = torch.matmul(t_grad_attn_matmul_1, t_attn_matmul_1_3)  # t_grad_attn_softmax_0: "cpu f32[2, 4, 16, 16]"
    # t_grad_attn_softmax_0 = ltorch.matmul(t_grad_attn_matmul_1, t_attn_matmul_1_3)  # t_grad_attn_softmax_0: "cpu f32[2, 4, 16, 16]"
      # t_grad_attn_softmax_0 = prims.matmul(t_grad_attn_matmul_1, t_attn_matmul_1_3)  # t_grad_attn_softmax_0: "cpu f32[2, 4, 16, 16]"
  del t_attn_matmul_1_3
  t_attn_matmul_1_5 = torchex.transpose(t_attn_softmax_0, (0, 1, 3, 2))  # t_attn_matmul_1_5: "cpu f32[2, 4, 16, 16]"
    # t_attn_matmul_1_5 = prims.transpose(t_attn_softmax_0, (0, 1, 3, 2))  # t_attn_matmul_1_5: "cpu f32[2, 4, 16, 16]"
  t_grad_attn_transpose_2 = torch.matmul(t_attn_matmul_1_5, t_grad_attn_matmul_1)  # t_grad_attn_transpose_2: "cpu f32[2, 4, 16, 16]"
    # t_grad_attn_transpose_2 = ltorch.matmul(t_attn_matmul_1_5, t_grad_attn_matmul_1)  # t_grad_attn_transpose_2: "cpu f32[2, 4, 16, 16]"
      # t_grad_attn_transpose_2 = prims.matmul(t_attn_matmul_1_5, t_grad_attn_matmul_1)  # t_grad_attn_transpose_2: "cpu f32[2, 4, 16, 16]"
  del t_attn_matmul_1_5, t_grad_attn_matmul_1
  (t_attn_eq_0,) = fuser_attn_eq_0_1(t_attn_bias)
    # t_attn_eq_0 = prims.eq(t_attn_bias, 0.0)  # t_attn_eq_0: "cpu b8[1, 1, 16, 16]"
  del t_attn_bias
  (t_grad_attn_matmul_0,) = fuser_attn_softmax_0_19(t_grad_attn_softmax_0, t_attn_softmax_0, t_attn_eq_0)
    # t_attn_softmax_0_19 = prims.mul(t_grad_attn_softmax_0, t_attn_softmax_0)  # t_attn_softmax_0_19: "cpu f32[2, 4, 16, 16]"
    # t_attn_softmax_0_20 = prims.sum(t_attn_softmax_0_19, (3,))  # t_attn_softmax_0_20: "cpu f32[2, 4, 16]"
    # t_attn_softmax_0_21 = prims.broadcast_in_dim(t_attn_softmax_0_20, [2, 4, 16, 1], (0, 1, 2))  # t_attn_softmax_0_21: "cpu f32[2, 4, 16, 1]"
    # t_attn_softmax_0_22 = prims.broadcast_in_dim(t_attn_softmax_0_21, [2, 4, 16, 16], (0, 1, 2, 3))  # t_attn_softmax_0_22: "cpu f32[2, 4, 16, 16]"
    # t_attn_softmax_0_23 = prims.sub(t_grad_attn_softmax_0, t_attn_softmax_0_22)  # t_attn_softmax_0_23: "cpu f32[2, 4, 16, 16]"
    # t_grad_attn_masked_fill_0 = prims.mul(t_attn_softmax_0, t_attn_softmax_0_23)  # t_grad_attn_masked_fill_0: "cpu f32[2, 4, 16, 16]"
    # t_attn_masked_fill_0_0 = prims.broadcast_in_dim(t_attn_eq_0, [2, 4, 16, 16], (0, 1, 2, 3))  # t_attn_masked_fill_0_0: "cpu b8[2, 4, 16, 16]"
    # t_grad_attn_mul_0 = prims.where(t_attn_masked_fill_0_0, 0.0, t_grad_attn_masked_fill_0)  # t_grad_attn_mul_0: "cpu f32[2, 4, 16, 16]"
    # t_grad_attn_matmul_0 = prims.mul(t_grad_attn_mul_0, 0.25)  # t_grad_attn_matmul_0: "cpu f32[2, 4, 16, 16]"
  del t_grad_attn_softmax_0, t_attn_softmax_0, t_attn_eq_0
  t_attn_matmul_0_3 = torchex.transpose(t_attn_transpose_3, (0, 1, 3, 2))  # t_attn_matmul_0_3: "cpu f32[2, 4, 16, 16]"
    # t_attn_matmul_0_3 = prims.transpose(t_attn_transpose_3, (0, 1, 3, 2))  # t_attn_matmul_0_3: "cpu f32[2, 4, 16, 16]"
  del t_attn_transpose_3
  t_grad_attn_transpose_1 = torch.matmul(t_grad_attn_matmul_0, t_attn_matmul_0_3)  # t_grad_attn_transpose_1: "cpu f32[2, 4, 16, 16]"
    # t_grad_attn_transpose_1 = ltorch.matmul(t_grad_attn_matmul_0, t_attn_matmul_0_3)  # t_grad_attn_transpose_1: "cpu f32[2, 4, 16, 16]"
      # t_grad_attn_transpose_1 = prims.matmul(t_grad_attn_matmul_0, t_attn_matmul_0_3)  # t_grad_attn_transpose_1: "cpu f32[2, 4, 16, 16]"
  del t_attn_matmul_0_3
  t_attn_matmul_0_5 = torchex.transpose(t_attn_transpose_1, (0, 1, 3, 2))  # t_attn_matmul_0_5: "cpu f32[2, 4, 16, 16]"
    # t_attn_matmul_0_5 = prims.transpose(t_attn_transpose_1, (0, 1, 3, 2))  # t_attn_matmul_0_5: "cpu f32[2, 4, 16, 16]"
  del t_attn_transpose_1
  t_grad_attn_transpose_3 = torch.matmul(t_attn_matmul_0_5, t_grad_attn_matmul_0)  # t_grad_attn_transpose_3: "cpu f32[2, 4, 16, 16]"
    # t_grad_attn_transpose_3 = ltorch.matmul(t_attn_matmul_0_5, t_grad_attn_matmul_0)  # t_grad_attn_transpose_3: "cpu f32[2, 4, 16, 16]"
      # t_grad_attn_transpose_3 = prims.matmul(t_attn_matmul_0_5, t_grad_attn_matmul_0)  # t_grad_attn_transpose_3: "cpu f32[2, 4, 16, 16]"
  del t_attn_matmul_0_5, t_grad_attn_matmul_0
  t_grad_attn_transpose_0 = torchex.transpose(t_grad_attn_transpose_3, (0, 1, 3, 2))  # t_grad_attn_transpose_0: "cpu f32[2, 4, 16, 16]"
    # t_grad_attn_transpose_0 = prims.transpose(t_grad_attn_transpose_3, (0, 1, 3, 2))  # t_grad_attn_transpose_0: "cpu f32[2, 4, 16, 16]"
  del t_grad_attn_transpose_3
  t_grad_attn_view_2 = torchex.transpose(t_grad_attn_transpose_2, (0, 2, 1, 3))  # t_grad_attn_view_2: "cpu f32[2, 16, 4, 16]"
    # t_grad_attn_view_2 = prims.transpose(t_grad_attn_transpose_2, (0, 2, 1, 3))  # t_grad_attn_view_2: "cpu f32[2, 16, 4, 16]"
  del t_grad_attn_transpose_2
  t_grad_attn_split_0_2 = torchex.reshape(t_grad_attn_view_2, (2, 16, 64))  # t_grad_attn_split_0_2: "cpu f32[2, 16, 64]"
    # t_grad_attn_split_0_2 = prims.reshape(t_grad_attn_view_2, (2, 16, 64))  # t_grad_attn_split_0_2: "cpu f32[2, 16, 64]"
  del t_grad_attn_view_2
  t_grad_attn_view_1 = torchex.transpose(t_grad_attn_transpose_1, (0, 2, 1, 3))  # t_grad_attn_view_1: "cpu f32[2, 16, 4, 16]"
    # t_grad_attn_view_1 = prims.transpose(t_grad_attn_transpose_1, (0, 2, 1, 3))  # t_grad_attn_view_1: "cpu f32[2, 16, 4, 16]"
  del t_grad_attn_transpose_1
  t_grad_attn_split_0_0 = torchex.reshape(t_grad_attn_view_1, (2, 16, 64))  # t_grad_attn_split_0_0: "cpu f32[2, 16, 64]"
    # t_grad_attn_split_0_0 = prims.reshape(t_grad_attn_view_1, (2, 16, 64))  # t_grad_attn_split_0_0: "cpu f32[2, 16, 64]"
  del t_grad_attn_view_1
  t_grad_attn_view_0 = torchex.transpose(t_grad_attn_transpose_0, (0, 2, 1, 3))  # t_grad_attn_view_0: "cpu f32[2, 16, 4, 16]"
    # t_grad_attn_view_0 = prims.transpose(t_grad_attn_transpose_0, (0, 2, 1, 3))  # t_grad_attn_view_0: "cpu f32[2, 16, 4, 16]"
  del t_grad_attn_transpose_0
  t_grad_attn_split_0_1 = torchex.reshape(t_grad_attn_view_0, (2, 16, 64))  # t_grad_attn_split_0_1: "cpu f32[2, 16, 64]"
    # t_grad_attn_split_0_1 = prims.reshape(t_grad_attn_view_0, (2, 16, 64))  # t_grad_attn_split_0_1: "cpu f32[2, 16, 64]"
  del t_grad_attn_view_0
  t_grad_attn_c_attn_linear_0 = torch.cat([t_grad_attn_split_0_0, t_grad_attn_split_0_1, t_grad_attn_split_0_2], 2)  # t_grad_attn_c_attn_linear_0: "cpu f32[2, 16, 192]"
    # t_grad_attn_c_attn_linear_0 = ltorch.cat([t_grad_attn_split_0_0, t_grad_attn_split_0_1, t_grad_attn_split_0_2], 2)  # t_grad_attn_c_attn_linear_0: "cpu f32[2, 16, 192]"
      # t_grad_attn_c_attn_linear_0 = prims.cat([t_grad_attn_split_0_0, t_grad_attn_split_0_1, t_grad_attn_split_0_2], 2)  # t_grad_attn_c_attn_linear_0: "cpu f32[2, 16, 192]"
  del t_grad_attn_split_0_0, t_grad_attn_split_0_1, t_grad_attn_split_0_2
  t_grad_ln_1_layer_norm_0 = torch.matmul(t_grad_attn_c_attn_linear_0, t_attn_c_attn_weight)  # t_grad_ln_1_layer_norm_0: "cpu f32[2, 16, 64]"
    # t_grad_ln_1_layer_norm_0 = ltorch.matmul(t_grad_attn_c_attn_linear_0, t_attn_c_attn_weight)  # t_grad_ln_1_layer_norm_0: "cpu f32[2, 16, 64]"
      # t_attn_c_attn_linear_0_3 = ltorch.reshape(t_grad_attn_c_attn_linear_0, (32, 192))  # t_attn_c_attn_linear_0_3: "cpu f32[32, 192]"
        # t_attn_c_attn_linear_0_3 = prims.reshape(t_grad_attn_c_attn_linear_0, (32, 192))  # t_attn_c_attn_linear_0_3: "cpu f32[32, 192]"
      # t_attn_c_attn_linear_0_4 = prims.matmul(t_attn_c_attn_linear_0_3, t_attn_c_attn_weight)  # t_attn_c_attn_linear_0_4: "cpu f32[32, 64]"
      # t_grad_ln_1_layer_norm_0 = ltorch.reshape(t_attn_c_attn_linear_0_4, (2, 16, 64))  # t_grad_ln_1_layer_norm_0: "cpu f32[2, 16, 64]"
        # t_grad_ln_1_layer_norm_0 = prims.reshape(t_attn_c_attn_linear_0_4, (2, 16, 64))  # t_grad_ln_1_layer_norm_0: "cpu f32[2, 16, 64]"
  del t_attn_c_attn_weight
  t_attn_c_attn_linear_0_6 = torchex.reshape(t_grad_attn_c_attn_linear_0, (32, 192))  # t_attn_c_attn_linear_0_6: "cpu f32[32, 192]"
    # t_attn_c_attn_linear_0_6 = prims.reshape(t_grad_attn_c_attn_linear_0, (32, 192))  # t_attn_c_attn_linear_0_6: "cpu f32[32, 192]"
  del t_grad_attn_c_attn_linear_0
  t_attn_c_attn_linear_0_7 = torchex.transpose(t_attn_c_attn_linear_0_6, (1, 0))  # t_attn_c_attn_linear_0_7: "cpu f32[192, 32]"
    # t_attn_c_attn_linear_0_7 = prims.transpose(t_attn_c_attn_linear_0_6, (1, 0))  # t_attn_c_attn_linear_0_7: "cpu f32[192, 32]"
  t_attn_c_attn_linear_0_8 = torchex.reshape(t_ln_1_layer_norm_0, (32, 64))  # t_attn_c_attn_linear_0_8: "cpu f32[32, 64]"
    # t_attn_c_attn_linear_0_8 = prims.reshape(t_ln_1_layer_norm_0, (32, 64))  # t_attn_c_attn_linear_0_8: "cpu f32[32, 64]"
  del t_ln_1_layer_norm_0
  t_grad_attn_c_attn_weight = torchex.matmul(t_attn_c_attn_linear_0_7, t_attn_c_attn_linear_0_8)  # t_grad_attn_c_attn_weight: "cpu f32[192, 64]"
    # t_grad_attn_c_attn_weight = prims.matmul(t_attn_c_attn_linear_0_7, t_attn_c_attn_linear_0_8)  # t_grad_attn_c_attn_weight: "cpu f32[192, 64]"
  del t_attn_c_attn_linear_0_7, t_attn_c_attn_linear_0_8
  t_grad_attn_c_attn_bias = torchex.sum(t_attn_c_attn_linear_0_6, (0,))  # t_grad_attn_c_attn_bias: "cpu f32[192]"
    # t_grad_attn_c_attn_bias = prims.sum(t_attn_c_attn_linear_0_6, (0,))  # t_grad_attn_c_attn_bias: "cpu f32[192]"
  del t_attn_c_attn_linear_0_6
  (t_ln_1_layer_norm_0_55,) = fuser_ln_1_layer_norm_0_29(x, t_grad_ln_1_layer_norm_0)
    # (t_ln_1_layer_norm_0_29, t_ln_1_layer_norm_0_30) = prims.var_mean(x, (2,), correction=0)
    # t_ln_1_layer_norm_0_31 = prims.broadcast_in_dim(t_ln_1_layer_norm_0_29, [2, 16, 1], (0, 1))  # t_ln_1_layer_norm_0_31: "cpu f32[2, 16, 1]"
    # t_ln_1_layer_norm_0_32 = prims.broadcast_in_dim(t_ln_1_layer_norm_0_30, [2, 16, 1], (0, 1))  # t_ln_1_layer_norm_0_32: "cpu f32[2, 16, 1]"
    # t_ln_1_layer_norm_0_33 = prims.add(t_ln_1_layer_norm_0_31, 1e-05)  # t_ln_1_layer_norm_0_33: "cpu f32[2, 16, 1]"
    # t_ln_1_layer_norm_0_34 = prims.rsqrt(t_ln_1_layer_norm_0_33)  # t_ln_1_layer_norm_0_34: "cpu f32[2, 16, 1]"
    # t_ln_1_layer_norm_0_35 = prims.broadcast_in_dim(t_ln_1_layer_norm_0_32, [2, 16, 64], (0, 1, 2))  # t_ln_1_layer_norm_0_35: "cpu f32[2, 16, 64]"
    # t_ln_1_layer_norm_0_36 = prims.sub(x, t_ln_1_layer_norm_0_35)  # t_ln_1_layer_norm_0_36: "cpu f32[2, 16, 64]"
    # t_ln_1_layer_norm_0_37 = prims.broadcast_in_dim(t_ln_1_layer_norm_0_34, [2, 16, 64], (0, 1, 2))  # t_ln_1_layer_norm_0_37: "cpu f32[2, 16, 64]"
    # t_ln_1_layer_norm_0_38 = prims.mul(t_ln_1_layer_norm_0_36, t_ln_1_layer_norm_0_37)  # t_ln_1_layer_norm_0_38: "cpu f32[2, 16, 64]"
    # t_ln_1_layer_norm_0_55 = prims.mul(t_grad_ln_1_layer_norm_0, t_ln_1_layer_norm_0_38)  # t_ln_1_layer_norm_0_55: "cpu f32[2, 16, 64]"
  del x
  t_grad_ln_1_weight = torch.sum(t_ln_1_layer_norm_0_55, (0, 1), False)  # t_grad_ln_1_weight: "cpu f32[64]"
    # t_grad_ln_1_weight = ltorch.sum(t_ln_1_layer_norm_0_55, (0, 1), False, dtype=None)  # t_grad_ln_1_weight: "cpu f32[64]"
      # t_grad_ln_1_weight = prims.sum(t_ln_1_layer_norm_0_55, (0, 1))  # t_grad_ln_1_weight: "cpu f32[64]"
  del t_ln_1_layer_norm_0_55
  t_grad_ln_1_bias = torch.sum(t_grad_ln_1_layer_norm_0, (0, 1), False)  # t_grad_ln_1_bias: "cpu f32[64]"
    # t_grad_ln_1_bias = ltorch.sum(t_grad_ln_1_layer_norm_0, (0, 1), False, dtype=None)  # t_grad_ln_1_bias: "cpu f32[64]"
      # t_grad_ln_1_bias = prims.sum(t_grad_ln_1_layer_norm_0, (0, 1))  # t_grad_ln_1_bias: "cpu f32[64]"
  del t_grad_ln_1_layer_norm_0
  return (None, t_grad_ln_1_weight, t_grad_ln_1_bias, t_grad_attn_c_attn_weight, t_grad_attn_c_attn_bias, t_grad_attn_c_proj_weight, t_grad_attn_c_proj_bias, t_grad_ln_2_weight, t_grad_ln_2_bias, t_grad_mlp_c_fc_weight, t_grad_mlp_c_fc_bias, t_grad_mlp_c_proj_weight, t_grad_mlp_c_proj_bias, None)
