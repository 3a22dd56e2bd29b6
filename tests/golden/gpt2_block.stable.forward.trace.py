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
  (t_ln_1_layer_norm_0,) = fuser_ln_1_layer_norm_0_14(x, t_ln_1_weight, t_ln_1_bias)
    # (t_ln_1_layer_norm_0_14, t_ln_1_layer_norm_0_15) = prims.var_mean(x, (2,), correction=0)
    # t_ln_1_layer_norm_0_16 = prims.broadcast_in_dim(t_ln_1_layer_norm_0_14, [2, 16, 1], (0, 1))  # t_ln_1_layer_norm_0_16: "cpu f32[2, 16, 1]"
    # t_ln_1_layer_norm_0_17 = prims.broadcast_in_dim(t_ln_1_layer_norm_0_15, [2, 16, 1], (0, 1))  # t_ln_1_layer_norm_0_17: "cpu f32[2, 16, 1]"
    # t_ln_1_layer_norm_0_18 = prims.add(t_ln_1_layer_norm_0_16, 1e-05)  # t_ln_1_layer_norm_0_18: "cpu f32[2, 16, 1]"
    # t_ln_1_layer_norm_0_19 = prims.rsqrt(t_ln_1_layer_norm_0_18)  # t_ln_1_layer_norm_0_19: "cpu f32[2, 16, 1]"
    # t_ln_1_layer_norm_0_20 = prims.broadcast_in_dim(t_ln_1_layer_norm_0_17, [2, 16, 64], (0, 1, 2))  # t_ln_1_layer_norm_0_20: "cpu f32[2, 16, 64]"
    # t_ln_1_layer_norm_0_21 = prims.sub(x, t_ln_1_layer_norm_0_20)  # t_ln_1_layer_norm_0_21: "cpu f32[2, 16, 64]"
    # t_ln_1_layer_norm_0_22 = prims.broadcast_in_dim(t_ln_1_layer_norm_0_19, [2, 16, 64], (0, 1, 2))  # t_ln_1_layer_norm_0_22: "cpu f32[2, 16, 64]"
    # t_ln_1_layer_norm_0_23 = prims.mul(t_ln_1_layer_norm_0_21, t_ln_1_layer_norm_0_22)  # t_ln_1_layer_norm_0_23: "cpu f32[2, 16, 64]"
    # t_ln_1_layer_norm_0_24 = prims.broadcast_in_dim(t_ln_1_weight, [2, 16, 64], (2,))  # t_ln_1_layer_norm_0_24: "cpu f32[2, 16, 64]"
    # t_ln_1_layer_norm_0_25 = prims.mul(t_ln_1_layer_norm_0_23, t_ln_1_layer_norm_0_24)  # t_ln_1_layer_norm_0_25: "cpu f32[2, 16, 64]"
    # t_ln_1_layer_norm_0_26 = prims.broadcast_in_dim(t_ln_1_bias, [2, 16, 64], (2,))  # t_ln_1_layer_norm_0_26: "cpu f32[2, 16, 64]"
    # t_ln_1_layer_norm_0 = prims.add(t_ln_1_layer_norm_0_25, t_ln_1_layer_norm_0_26)  # t_ln_1_layer_norm_0: "cpu f32[2, 16, 64]"
  del t_ln_1_weight, t_ln_1_bias
  t_attn_c_attn_linear_0 = torch.nn.functional.linear(t_ln_1_layer_norm_0, t_attn_c_attn_weight, t_attn_c_attn_bias)  # t_attn_c_attn_linear_0: "cpu f32[2, 16, 192]"
    # t_attn_c_attn_linear_0 = ltorch.linear(t_ln_1_layer_norm_0, t_attn_c_attn_weight, t_attn_c_attn_bias)  # t_attn_c_attn_linear_0: "cpu f32[2, 16, 192]"
      # t_attn_c_attn_linear_0 = prims.linear(t_ln_1_layer_norm_0, t_attn_c_attn_weight, t_attn_c_attn_bias)  # t_attn_c_attn_linear_0: "cpu f32[2, 16, 192]"
  del t_attn_c_attn_bias
  (t_attn_split_0_0, t_attn_split_0_1, t_attn_split_0_2) = torch.split(t_attn_c_attn_linear_0, 64, 2)
    # (t_attn_split_0_0, t_attn_split_0_1, t_attn_split_0_2) = ltorch.split(t_attn_c_attn_linear_0, 64, 2)
      # t_attn_split_0_0 = prims.slice_prim(t_attn_c_attn_linear_0, [0, 0, 0], [2, 16, 64], [1, 1, 1])  # t_attn_split_0_0: "cpu f32[2, 16, 64]"
      # t_attn_split_0_1 = prims.slice_prim(t_attn_c_attn_linear_0, [0, 0, 64], [2, 16, 128], [1, 1, 1])  # t_attn_split_0_1: "cpu f32[2, 16, 64]"
      # t_attn_split_0_2 = prims.slice_prim(t_attn_c_attn_linear_0, [0, 0, 128], [2, 16, 192], [1, 1, 1])  # t_attn_split_0_2: "cpu f32[2, 16, 64]"
  del t_attn_c_attn_linear_0
  t_attn_view_0 = Tensor.view(t_attn_split_0_1, 2, 16, 4, 16)  # t_attn_view_0: "cpu f32[2, 16, 4, 16]"
    # t_attn_view_0 = ltorch.view(t_attn_split_0_1, 2, 16, 4, 16)  # t_attn_view_0: "cpu f32[2, 16, 4, 16]"
      # t_attn_view_0 = prims.reshape(t_attn_split_0_1, (2, 16, 4, 16))  # t_attn_view_0: "cpu f32[2, 16, 4, 16]"
  del t_attn_split_0_1
  t_attn_transpose_0 = torch.transpose(t_attn_view_0, 1, 2)  # t_attn_transpose_0: "cpu f32[2, 4, 16, 16]"
    # t_attn_transpose_0 = ltorch.transpose(t_attn_view_0, 1, 2)  # t_attn_transpose_0: "cpu f32[2, 4, 16, 16]"
      # t_attn_transpose_0 = prims.transpose(t_attn_view_0, (0, 2, 1, 3))  # t_attn_transpose_0: "cpu f32[2, 4, 16, 16]"
  del t_attn_view_0
  t_attn_view_1 = Tensor.view(t_attn_split_0_0, 2, 16, 4, 16)  # t_attn_view_1: "cpu f32[2, 16, 4, 16]"
    # t_attn_view_1 = ltorch.view(t_attn_split_0_0, 2, 16, 4, 16)  # t_attn_view_1: "cpu f32[2, 16, 4, 16]"
      # t_attn_view_1 = prims.reshape(t_attn_split_0_0, (2, 16, 4, 16))  # t_attn_view_1: "cpu f32[2, 16, 4, 16]"
  del t_attn_split_0_0
  t_attn_transpose_1 = torch.transpose(t_attn_view_1, 1, 2)  # t_attn_transpose_1: "cpu f32[2, 4, 16, 16]"
    # t_attn_transpose_1 = ltorch.transpose(t_attn_view_1, 1, 2)  # t_attn_transpose_1: "cpu f32[2, 4, 16, 16]"
      # t_attn_transpose_1 = prims.transpose(t_attn_view_1, (0, 2, 1, 3))  # t_attn_transpose_1: "cpu f32[2, 4, 16, 16]"
  del t_attn_view_1
  t_attn_view_2 = Tensor.view(t_attn_split_0_2, 2, 16, 4, 16)  # t_attn_view_2: "cpu f32[2, 16, 4, 16]"
    # t_attn_view_2 = ltorch.view(t_attn_split_0_2, 2, 16, 4, 16)  # t_attn_view_2: "cpu f32[2, 16, 4, 16]"
      # t_attn_view_2 = prims.reshape(t_attn_split_0_2, (2, 16, 4, 16))  # t_attn_view_2: "cpu f32[2, 16, 4, 16]"
  del t_attn_split_0_2
  t_attn_transpose_2 = torch.transpose(t_attn_view_2, 1, 2)  # t_attn_transpose_2: "cpu f32[2, 4, 16, 16]"
    # t_attn_transpose_2 = ltorch.transpose(t_attn_view_2, 1, 2)  # t_attn_transpose_2: "cpu f32[2, 4, 16, 16]"
      # t_attn_transpose_2 = prims.transpose(t_attn_view_2, (0, 2, 1, 3))  # t_attn_transpose_2: "cpu f32[2, 4, 16, 16]"
  del t_attn_view_2
  t_attn_transpose_3 = torch.transpose(t_attn_transpose_0, -2, -1)  # t_attn_transpose_3: "cpu f32[2, 4, 16, 16]"
    # t_attn_transpose_3 = ltorch.transpose(t_attn_transpose_0, -2, -1)  # t_attn_transpose_3: "cpu f32[2, 4, 16, 16]"
      # t_attn_transpose_3 = prims.transpose(t_attn_transpose_0, (0, 1, 3, 2))  # t_attn_transpose_3: "cpu f32[2, 4, 16, 16]"
  del t_attn_transpose_0
  t_attn_matmul_0 = torch.matmul(t_attn_transpose_1, t_attn_transpose_3)  # t_attn_matmul_0: "cpu f32[2, 4, 16, 16]"
    # t_attn_matmul_0 = ltorch.matmul(t_attn_transpose_1, t_attn_transpose_3)  # t_attn_matmul_0: "cpu f32[2, 4, 16, 16]"
      # t_attn_matmul_0 = prims.matmul(t_attn_transpose_1, t_attn_transpose_3)  # t_attn_matmul_0: "cpu f32[2, 4, 16, 16]"
  (t_attn_eq_0,) = fuser_attn_eq_0(t_attn_bias)
    # t_attn_eq_0 = prims.eq(t_attn_bias, 0.0)  # t_attn_eq_0: "cpu b8[1, 1, 16, 16]"
  (t_attn_softmax_0,) = fuser_attn_mul_0(t_attn_matmul_0, t_attn_eq_0)
    # t_attn_mul_0 = prims.mul(t_attn_matmul_0, 0.25)  # t_attn_mul_0: "cpu f32[2, 4, 16, 16]"
    # t_attn_masked_fill_0_0 = prims.broadcast_in_dim(t_attn_eq_0, [2, 4, 16, 16], (0, 1, 2, 3))  # t_attn_masked_fill_0_0: "cpu b8[2, 4, 16, 16]"
    # t_attn_masked_fill_0 = prims.where(t_attn_masked_fill_0_0, -float('inf'), t_attn_mul_0)  # t_attn_masked_fill_0: "cpu f32[2, 4, 16, 16]"
    # t_attn_softmax_0_9 = prims.amax(t_attn_masked_fill_0, (3,))  # t_attn_softmax_0_9: "cpu f32[2, 4, 16]"
    # t_attn_softmax_0_10 = prims.broadcast_in_dim(t_attn_softmax_0_9, [2, 4, 16, 1], (0, 1, 2))  # t_attn_softmax_0_10: "cpu f32[2, 4, 16, 1]"
    # t_attn_softmax_0_11 = prims.broadcast_in_dim(t_attn_softmax_0_10, [2, 4, 16, 16], (0, 1, 2, 3))  # t_attn_softmax_0_11: "cpu f32[2, 4, 16, 16]"
    # t_attn_softmax_0_12 = prims.sub(t_attn_masked_fill_0, t_attn_softmax_0_11)  # t_attn_softmax_0_12: "cpu f32[2, 4, 16, 16]"
    # t_attn_softmax_0_13 = prims.exp(t_attn_softmax_0_12)  # t_attn_softmax_0_13: "cpu f32[2, 4, 16, 16]"
    # t_attn_softmax_0_14 = prims.sum(t_attn_softmax_0_13, (3,))  # t_attn_softmax_0_14: "cpu f32[2, 4, 16]"
    # t_attn_softmax_0_15 = prims.broadcast_in_dim(t_attn_softmax_0_14, [2, 4, 16, 1], (0, 1, 2))  # t_attn_softmax_0_15: "cpu f32[2, 4, 16, 1]"
    # t_attn_softmax_0_16 = prims.broadcast_in_dim(t_attn_softmax_0_15, [2, 4, 16, 16], (0, 1, 2, 3))  # t_attn_softmax_0_16: "cpu f32[2, 4, 16, 16]"
    # t_attn_softmax_0 = prims.div(t_attn_softmax_0_13, t_attn_softmax_0_16)  # t_attn_softmax_0: "cpu f32[2, 4, 16, 16]"
  del t_attn_matmul_0, t_attn_eq_0
  t_attn_matmul_1 = torch.matmul(t_attn_softmax_0, t_attn_transpose_2)  # t_attn_matmul_1: "cpu f32[2, 4, 16, 16]"
    # t_attn_matmul_1 = ltorch.matmul(t_attn_softmax_0, t_attn_transpose_2)  # t_attn_matmul_1: "cpu f32[2, 4, 16, 16]"
      # t_attn_matmul_1 = prims.matmul(t_attn_softmax_0, t_attn_transpose_2)  # t_attn_matmul_1: "cpu f32[2, 4, 16, 16]"
  t_attn_transpose_4 = torch.transpose(t_attn_matmul_1, 1, 2)  # t_attn_transpose_4: "cpu f32[2, 16, 4, 16]"
    # t_attn_transpose_4 = ltorch.transpose(t_attn_matmul_1, 1, 2)  # t_attn_transpose_4: "cpu f32[2, 16, 4, 16]"
      # t_attn_transpose_4 = prims.transpose(t_attn_matmul_1, (0, 2, 1, 3))  # t_attn_transpose_4: "cpu f32[2, 16, 4, 16]"
  del t_attn_matmul_1
  t_attn_contiguous_0 = Tensor.contiguous(t_attn_transpose_4)  # t_attn_contiguous_0: "cpu f32[2, 16, 4, 16]"
    # t_attn_contiguous_0 = ltorch.contiguous(t_attn_transpose_4)  # t_attn_contiguous_0: "cpu f32[2, 16, 4, 16]"
      # t_attn_contiguous_0 = prims.stride_order(t_attn_transpose_4, (3, 2, 1, 0))  # t_attn_contiguous_0: "cpu f32[2, 16, 4, 16]"
  del t_attn_transpose_4
  t_attn_view_3 = Tensor.view(t_attn_contiguous_0, 2, 16, 64)  # t_attn_view_3: "cpu f32[2, 16, 64]"
    # t_attn_view_3 = ltorch.view(t_attn_contiguous_0, 2, 16, 64)  # t_attn_view_3: "cpu f32[2, 16, 64]"
      # t_attn_view_3 = prims.reshape(t_attn_contiguous_0, (2, 16, 64))  # t_attn_view_3: "cpu f32[2, 16, 64]"
  del t_attn_contiguous_0
  t_attn_c_proj_linear_0 = torch.nn.functional.linear(t_attn_view_3, t_attn_c_proj_weight, t_attn_c_proj_bias)  # t_attn_c_proj_linear_0: "cpu f32[2, 16, 64]"
    # t_attn_c_proj_linear_0 = ltorch.linear(t_attn_view_3, t_attn_c_proj_weight, t_attn_c_proj_bias)  # t_attn_c_proj_linear_0: "cpu f32[2, 16, 64]"
      # t_attn_c_proj_linear_0 = prims.linear(t_attn_view_3, t_attn_c_proj_weight, t_attn_c_proj_bias)  # t_attn_c_proj_linear_0: "cpu f32[2, 16, 64]"
  del t_attn_c_proj_bias
  (t_add_0, t_ln_2_layer_norm_0) = fuser_add_0(x, t_attn_c_proj_linear_0, t_ln_2_weight, t_ln_2_bias)
    # t_add_0 = prims.add(x, t_attn_c_proj_linear_0)  # t_add_0: "cpu f32[2, 16, 64]"
    # (t_ln_2_layer_norm_0_14, t_ln_2_layer_norm_0_15) = prims.var_mean(t_add_0, (2,), correction=0)
    # t_ln_2_layer_norm_0_16 = prims.broadcast_in_dim(t_ln_2_layer_norm_0_14, [2, 16, 1], (0, 1))  # t_ln_2_layer_norm_0_16: "cpu f32[2, 16, 1]"
    # t_ln_2_layer_norm_0_17 = prims.broadcast_in_dim(t_ln_2_layer_norm_0_15, [2, 16, 1], (0, 1))  # t_ln_2_layer_norm_0_17: "cpu f32[2, 16, 1]"
    # t_ln_2_layer_norm_0_18 = prims.add(t_ln_2_layer_norm_0_16, 1e-05)  # t_ln_2_layer_norm_0_18: "cpu f32[2, 16, 1]"
    # t_ln_2_layer_norm_0_19 = prims.rsqrt(t_ln_2_layer_norm_0_18)  # t_ln_2_layer_norm_0_19: "cpu f32[2, 16, 1]"
    # t_ln_2_layer_norm_0_20 = prims.broadcast_in_dim(t_ln_2_layer_norm_0_17, [2, 16, 64], (0, 1, 2))  # t_ln_2_layer_norm_0_20: "cpu f32[2, 16, 64]"
    # t_ln_2_layer_norm_0_21 = prims.sub(t_add_0, t_ln_2_layer_norm_0_20)  # t_ln_2_layer_norm_0_21: "cpu f32[2, 16, 64]"
    # t_ln_2_layer_norm_0_22 = prims.broadcast_in_dim(t_ln_2_layer_norm_0_19, [2, 16, 64], (0, 1, 2))  # t_ln_2_layer_norm_0_22: "cpu f32[2, 16, 64]"
    # t_ln_2_layer_norm_0_23 = prims.mul(t_ln_2_layer_norm_0_21, t_ln_2_layer_norm_0_22)  # t_ln_2_layer_norm_0_23: "cpu f32[2, 16, 64]"
    # t_ln_2_layer_norm_0_24 = prims.broadcast_in_dim(t_ln_2_weight, [2, 16, 64], (2,))  # t_ln_2_layer_norm_0_24: "cpu f32[2, 16, 64]"
    # t_ln_2_layer_norm_0_25 = prims.mul(t_ln_2_layer_norm_0_23, t_ln_2_layer_norm_0_24)  # t_ln_2_layer_norm_0_25: "cpu f32[2, 16, 64]"
    # t_ln_2_layer_norm_0_26 = prims.broadcast_in_dim(t_ln_2_bias, [2, 16, 64], (2,))  # t_ln_2_layer_norm_0_26: "cpu f32[2, 16, 64]"
    # t_ln_2_layer_norm_0 = prims.add(t_ln_2_layer_norm_0_25, t_ln_2_layer_norm_0_26)  # t_ln_2_layer_norm_0: "cpu f32[2, 16, 64]"
  del t_attn_c_proj_linear_0, t_ln_2_bias
  t_mlp_c_fc_linear_0 = torch.nn.functional.linear(t_ln_2_layer_norm_0, t_mlp_c_fc_weight, t_mlp_c_fc_bias)  # t_mlp_c_fc_linear_0: "cpu f32[2, 16, 256]"
    # t_mlp_c_fc_linear_0 = ltorch.linear(t_ln_2_layer_norm_0, t_mlp_c_fc_weight, t_mlp_c_fc_bias)  # t_mlp_c_fc_linear_0: "cpu f32[2, 16, 256]"
      # t_mlp_c_fc_linear_0 = prims.linear(t_ln_2_layer_norm_0, t_mlp_c_fc_weight, t_mlp_c_fc_bias)  # t_mlp_c_fc_linear_0: "cpu f32[2, 16, 256]"
  del t_mlp_c_fc_bias
  (t_mlp_gelu_0,) = fuser_mlp_gelu_0_0(t_mlp_c_fc_linear_0)
    # t_mlp_gelu_0_0 = prims.mul(t_mlp_c_fc_linear_0, t_mlp_c_fc_linear_0)  # t_mlp_gelu_0_0: "cpu f32[2, 16, 256]"
    # t_mlp_gelu_0_1 = prims.mul(t_mlp_gelu_0_0, t_mlp_c_fc_linear_0)  # t_mlp_gelu_0_1: "cpu f32[2, 16, 256]"
    # t_mlp_gelu_0_2 = prims.mul(0.044715, t_mlp_gelu_0_1)  # t_mlp_gelu_0_2: "cpu f32[2, 16, 256]"
    # t_mlp_gelu_0_3 = prims.add(t_mlp_c_fc_linear_0, t_mlp_gelu_0_2)  # t_mlp_gelu_0_3: "cpu f32[2, 16, 256]"
    # t_mlp_gelu_0_4 = prims.mul(0.7978845608028654, t_mlp_gelu_0_3)  # t_mlp_gelu_0_4: "cpu f32[2, 16, 256]"
    # t_mlp_gelu_0_5 = prims.mul(0.5, t_mlp_c_fc_linear_0)  # t_mlp_gelu_0_5: "cpu f32[2, 16, 256]"
    # t_mlp_gelu_0_6 = prims.tanh(t_mlp_gelu_0_4)  # t_mlp_gelu_0_6: "cpu f32[2, 16, 256]"
    # t_mlp_gelu_0_7 = prims.add(1.0, t_mlp_gelu_0_6)  # t_mlp_gelu_0_7: "cpu f32[2, 16, 256]"
    # t_mlp_gelu_0 = prims.mul(t_mlp_gelu_0_5, t_mlp_gelu_0_7)  # t_mlp_gelu_0: "cpu f32[2, 16, 256]"
  t_mlp_c_proj_linear_0 = torch.nn.functional.linear(t_mlp_gelu_0, t_mlp_c_proj_weight, t_mlp_c_proj_bias)  # t_mlp_c_proj_linear_0: "cpu f32[2, 16, 64]"
    # t_mlp_c_proj_linear_0 = ltorch.linear(t_mlp_gelu_0, t_mlp_c_proj_weight, t_mlp_c_proj_bias)  # t_mlp_c_proj_linear_0: "cpu f32[2, 16, 64]"
      # t_mlp_c_proj_linear_0 = prims.linear(t_mlp_gelu_0, t_mlp_c_proj_weight, t_mlp_c_proj_bias)  # t_mlp_c_proj_linear_0: "cpu f32[2, 16, 64]"
  del t_mlp_gelu_0, t_mlp_c_proj_bias
  (t_add_1,) = fuser_add_1(t_add_0, t_mlp_c_proj_linear_0)
    # t_add_1 = prims.add(t_add_0, t_mlp_c_proj_linear_0)  # t_add_1: "cpu f32[2, 16, 64]"
  del t_mlp_c_proj_linear_0
  return (t_add_1, (x, t_attn_c_attn_weight, t_attn_c_proj_weight, t_ln_2_weight, t_mlp_c_fc_weight, t_mlp_c_proj_weight, t_attn_bias, t_ln_1_layer_norm_0, t_attn_transpose_1, t_attn_transpose_2, t_attn_transpose_3, t_attn_softmax_0, t_attn_view_3, t_add_0, t_ln_2_layer_norm_0, t_mlp_c_fc_linear_0))
