# Constructed by Delete Last Used
import thunder.executors.torchex as torchex
import torch
from thunder.executors.torchex import no_autocast

@torch.no_grad()
@no_autocast
def backward_fn(saved_for_backward, cotangents):
  # saved_for_backward: "Collection"
  # x: "cpu f32[4, 3, 16, 16]"
  # t_conv1_weight: "cpu f32[16, 3, 3, 3]"
  # t_bn1_weight: "cpu f32[16]"
  # t_bn1_bias: "cpu f32[16]"
  # t_conv2_weight: "cpu f32[32, 16, 3, 3]"
  # t_bn2_weight: "cpu f32[32]"
  # t_bn2_bias: "cpu f32[32]"
  # t_fc_weight: "cpu f32[10, 32]"
  # t_bn1_running_mean: "cpu f32[16]"
  # t_bn1_running_var: "cpu f32[16]"
  # t_bn2_running_mean: "cpu f32[32]"
  # t_bn2_running_var: "cpu f32[32]"
  # t0: "cpu f32[4, 16, 16, 16]"
  # t20: "cpu f32[4, 16, 8, 8]"
  # t21: "cpu f32[4, 32, 8, 8]"
  # t41: "cpu f32[4, 32, 4, 4]"
  # t45: "cpu f32[4, 32]"
  x, t_conv1_weight, t_bn1_weight, t_bn1_bias, t_conv2_weight, t_bn2_weight, t_bn2_bias, t_fc_weight, t_bn1_running_mean, t_bn1_running_var, t_bn2_running_mean, t_bn2_running_var, t0, t20, t21, t41, t45, = saved_for_backward
  # cotangents: "Collection"
  # t192: "cpu f32[4, 10]"
  t192, = cotangents
  t186 = torch.matmul(t192, t_fc_weight)  # t186: "cpu f32[4, 32]"
    # t186 = ltorch.matmul(t192, t_fc_weight)  # t186: "cpu f32[4, 32]"
      # t186 = prims.matmul(t192, t_fc_weight)  # t186: "cpu f32[4, 32]"
  del t_fc_weight
  t187 = torchex.reshape(t192, (4, 10))  # t187: "cpu f32[4, 10]"
    # t187 = prims.reshape(t192, (4, 10))  # t187: "cpu f32[4, 10]"
  del t192
  t188 = torchex.transpose(t187, (1, 0))  # t188: "cpu f32[10, 4]"
    # t188 = prims.transpose(t187, (1, 0))  # t188: "cpu f32[10, 4]"
  t189 = torchex.reshape(t45, (4, 32))  # t189: "cpu f32[4, 32]"
    # t189 = prims.reshape(t45, (4, 32))  # t189: "cpu f32[4, 32]"
  del t45
  t190 = torchex.matmul(t188, t189)  # t190: "cpu f32[10, 32]"
    # t190 = prims.matmul(t188, t189)  # t190: "cpu f32[10, 32]"
  del t188, t189
  t191 = torchex.sum(t187, (0,))  # t191: "cpu f32[10]"
    # t191 = prims.sum(t187, (0,))  # t191: "cpu f32[10]"
  del t187
  t183 = torchex.reshape(t186, (4, 32, 1, 1))  # t183: "cpu f32[4, 32, 1, 1]"
    # t183 = prims.reshape(t186, (4, 32, 1, 1))  # t183: "cpu f32[4, 32, 1, 1]"
  del t186
  (t180,) = fuser_2(t183)
    # t180 = prims.div(t183, 16.0)  # t180: "cpu f32[4, 32, 1, 1]"
  del t183
  t177 = torchex.broadcast_in_dim(t180, [4, 32, 1, 4, 1, 4], (0, 1, 2, 4))  # t177: "cpu f32[4, 32, 1, 4, 1, 4]"
    # t177 = prims.broadcast_in_dim(t180, [4, 32, 1, 4, 1, 4], (0, 1, 2, 4))  # t177: "cpu f32[4, 32, 1, 4, 1, 4]"
  del t180
  t174 = torchex.reshape(t177, (4, 32, 4, 4))  # t174: "cpu f32[4, 32, 4, 4]"
    # t174 = prims.reshape(t177, (4, 32, 4, 4))  # t174: "cpu f32[4, 32, 4, 4]"
  del t177
  t35 = torch.nn.functional.batch_norm(t21, t_bn2_running_mean, t_bn2_running_var, t_bn2_weight, t_bn2_bias, False, 0.1, 1e-05)  # t35: "cpu f32[4, 32, 8, 8]"
    # t35 = ltorch.batch_norm(t21, t_bn2_running_mean, t_bn2_running_var, t_bn2_weight, t_bn2_bias, False, 0.1, 1e-05)  # t35: "cpu f32[4, 32, 8, 8]"
      # t22 = ltorch.reshape(t_bn2_running_mean, (1, 32, 1, 1))  # t22: "cpu f32[1, 32, 1, 1]"
        # t22 = prims.reshape(t_bn2_running_mean, (1, 32, 1, 1))  # t22: "cpu f32[1, 32, 1, 1]"
      # t23 = ltorch.reshape(t_bn2_running_var, (1, 32, 1, 1))  # t23: "cpu f32[1, 32, 1, 1]"
        # t23 = prims.reshape(t_bn2_running_var, (1, 32, 1, 1))  # t23: "cpu f32[1, 32, 1, 1]"
      # t24 = ltorch.add(t23, 1e-05, alpha=1)  # t24: "cpu f32[1, 32, 1, 1]"
        # t24 = prims.add(t23, 1e-05)  # t24: "cpu f32[1, 32, 1, 1]"
      # t25 = ltorch.rsqrt(t24)  # t25: "cpu f32[1, 32, 1, 1]"
        # t25 = prims.rsqrt(t24)  # t25: "cpu f32[1, 32, 1, 1]"
      # t27 = ltorch.sub(t21, t22, alpha=1)  # t27: "cpu f32[4, 32, 8, 8]"
        # t26 = prims.broadcast_in_dim(t22, [4, 32, 8, 8], (0, 1, 2, 3))  # t26: "cpu f32[4, 32, 8, 8]"
        # t27 = prims.sub(t21, t26)  # t27: "cpu f32[4, 32, 8, 8]"
      # t29 = ltorch.mul(t27, t25)  # t29: "cpu f32[4, 32, 8, 8]"
        # t28 = prims.broadcast_in_dim(t25, [4, 32, 8, 8], (0, 1, 2, 3))  # t28: "cpu f32[4, 32, 8, 8]"
        # t29 = prims.mul(t27, t28)  # t29: "cpu f32[4, 32, 8, 8]"
      # t30 = ltorch.reshape(t_bn2_weight, (1, 32, 1, 1))  # t30: "cpu f32[1, 32, 1, 1]"
        # t30 = prims.reshape(t_bn2_weight, (1, 32, 1, 1))  # t30: "cpu f32[1, 32, 1, 1]"
      # t32 = ltorch.mul(t29, t30)  # t32: "cpu f32[4, 32, 8, 8]"
        # t31 = prims.broadcast_in_dim(t30, [4, 32, 8, 8], (0, 1, 2, 3))  # t31: "cpu f32[4, 32, 8, 8]"
        # t32 = prims.mul(t29, t31)  # t32: "cpu f32[4, 32, 8, 8]"
      # t33 = ltorch.reshape(t_bn2_bias, (1, 32, 1, 1))  # t33: "cpu f32[1, 32, 1, 1]"
        # t33 = prims.reshape(t_bn2_bias, (1, 32, 1, 1))  # t33: "cpu f32[1, 32, 1, 1]"
      # t35 = ltorch.add(t32, t33, alpha=1)  # t35: "cpu f32[4, 32, 8, 8]"
        # t34 = prims.broadcast_in_dim(t33, [4, 32, 8, 8], (0, 1, 2, 3))  # t34: "cpu f32[4, 32, 8, 8]"
        # t35 = prims.add(t32, t34)  # t35: "cpu f32[4, 32, 8, 8]"
  del t_bn2_bias
  (t36, t37) = fuser_3(t35)
    # t36 = prims.gt(t35, 0.0)  # t36: "cpu b8[4, 32, 8, 8]"
    # t37 = prims.where(t36, t35, 0.0)  # t37: "cpu f32[4, 32, 8, 8]"
  del t35
  t38 = torchex.pad(t37, -float('inf'), [(0, 0, 0), (0, 0, 0), (0, 0, 0), (0, 0, 0)])  # t38: "cpu f32[4, 32, 8, 8]"
    # t38 = prims.pad(t37, -float('inf'), [(0, 0, 0), (0, 0, 0), (0, 0, 0), (0, 0, 0)])  # t38: "cpu f32[4, 32, 8, 8]"
  del t37
  t39 = torchex.unfold(t38, 2, 2, 2)  # t39: "cpu f32[4, 32, 4, 8, 2]"
    # t39 = prims.unfold(t38, 2, 2, 2)  # t39: "cpu f32[4, 32, 4, 8, 2]"
  del t38
  t40 = torchex.unfold(t39, 3, 2, 2)  # t40: "cpu f32[4, 32, 4, 4, 2, 2]"
    # t40 = prims.unfold(t39, 3, 2, 2)  # t40: "cpu f32[4, 32, 4, 4, 2, 2]"
  del t39
  (t167,) = fuser_4(t41, t40)
    # t165 = prims.broadcast_in_dim(t41, [4, 32, 4, 4, 2, 2], (0, 1, 2, 3))  # t165: "cpu f32[4, 32, 4, 4, 2, 2]"
    # t166 = prims.eq(t40, t165)  # t166: "cpu b8[4, 32, 4, 4, 2, 2]"
    # t167 = prims.convert_element_type(t166, dtypes.float32)  # t167: "cpu f32[4, 32, 4, 4, 2, 2]"
  del t41, t40
  t168 = torchex.sum(t167, (4, 5))  # t168: "cpu f32[4, 32, 4, 4]"
    # t168 = prims.sum(t167, (4, 5))  # t168: "cpu f32[4, 32, 4, 4]"
  (t169,) = fuser_5(t174, t168)
    # t169 = prims.div(t174, t168)  # t169: "cpu f32[4, 32, 4, 4]"
  del t174, t168
  (t171,) = fuser_6(t169, t167)
    # t170 = prims.broadcast_in_dim(t169, [4, 32, 4, 4, 2, 2], (0, 1, 2, 3))  # t170: "cpu f32[4, 32, 4, 4, 2, 2]"
    # t171 = prims.mul(t170, t167)  # t171: "cpu f32[4, 32, 4, 4, 2, 2]"
  del t169, t167
  t156 = torchex.slice_prim(t171, [0, 0, 0, 0, 0, 0], [4, 32, 4, 4, 2, 1], [1, 1, 1, 1, 1, 1])  # t156: "cpu f32[4, 32, 4, 4, 2, 1]"
    # t156 = prims.slice_prim(t171, [0, 0, 0, 0, 0, 0], [4, 32, 4, 4, 2, 1], [1, 1, 1, 1, 1, 1])  # t156: "cpu f32[4, 32, 4, 4, 2, 1]"
  t157 = torchex.reshape(t156, (4, 32, 4, 4, 2))  # t157: "cpu f32[4, 32, 4, 4, 2]"
    # t157 = prims.reshape(t156, (4, 32, 4, 4, 2))  # t157: "cpu f32[4, 32, 4, 4, 2]"
  del t156
  t158 = torchex.pad(t157, 0.0, [(0, 0, 0), (0, 0, 0), (0, 0, 0), (0, 1, 1), (0, 0, 0)])  # t158: "cpu f32[4, 32, 4, 8, 2]"
    # t158 = prims.pad(t157, 0.0, [(0, 0, 0), (0, 0, 0), (0, 0, 0), (0, 1, 1), (0, 0, 0)])  # t158: "cpu f32[4, 32, 4, 8, 2]"
  del t157
  t159 = torchex.slice_prim(t171, [0, 0, 0, 0, 0, 1], [4, 32, 4, 4, 2, 2], [1, 1, 1, 1, 1, 1])  # t159: "cpu f32[4, 32, 4, 4, 2, 1]"
    # t159 = prims.slice_prim(t171, [0, 0, 0, 0, 0, 1], [4, 32, 4, 4, 2, 2], [1, 1, 1, 1, 1, 1])  # t159: "cpu f32[4, 32, 4, 4, 2, 1]"
  del t171
  t160 = torchex.reshape(t159, (4, 32, 4, 4, 2))  # t160: "cpu f32[4, 32, 4, 4, 2]"
    # t160 = prims.reshape(t159, (4, 32, 4, 4, 2))  # t160: "cpu f32[4, 32, 4, 4, 2]"
  del t159
  t161 = torchex.pad(t160, 0.0, [(0, 0, 0), (0, 0, 0), (0, 0, 0), (1, 0, 1), (0, 0, 0)])  # t161: "cpu f32[4, 32, 4, 8, 2]"
    # t161 = prims.pad(t160, 0.0, [(0, 0, 0), (0, 0, 0), (0, 0, 0), (1, 0, 1), (0, 0, 0)])  # t161: "cpu f32[4, 32, 4, 8, 2]"
  del t160
  (t162,) = fuser_7(t158, t161)
    # t162 = prims.add(t158, t161)  # t162: "cpu f32[4, 32, 4, 8, 2]"
  del t158, t161
  t147 = torchex.slice_prim(t162, [0, 0, 0, 0, 0], [4, 32, 4, 8, 1], [1, 1, 1, 1, 1])  # t147: "cpu f32[4, 32, 4, 8, 1]"
    # t147 = prims.slice_prim(t162, [0, 0, 0, 0, 0], [4, 32, 4, 8, 1], [1, 1, 1, 1, 1])  # t147: "cpu f32[4, 32, 4, 8, 1]"
  t148 = torchex.reshape(t147, (4, 32, 4, 8))  # t148: "cpu f32[4, 32, 4, 8]"
    # t148 = prims.reshape(t147, (4, 32, 4, 8))  # t148: "cpu f32[4, 32, 4, 8]"
  del t147
  t149 = torchex.pad(t148, 0.0, [(0, 0, 0), (0, 0, 0), (0, 1, 1), (0, 0, 0)])  # t149: "cpu f32[4, 32, 8, 8]"
    # t149 = prims.pad(t148, 0.0, [(0, 0, 0), (0, 0, 0), (0, 1, 1), (0, 0, 0)])  # t149: "cpu f32[4, 32, 8, 8]"
  del t148
  t150 = torchex.slice_prim(t162, [0, 0, 0, 0, 1], [4, 32, 4, 8, 2], [1, 1, 1, 1, 1])  # t150: "cpu f32[4, 32, 4, 8, 1]"
    # t150 = prims.slice_prim(t162, [0, 0, 0, 0, 1], [4, 32, 4, 8, 2], [1, 1, 1, 1, 1])  # t150: "cpu f32[4, 32, 4, 8, 1]"
  del t162
  t151 = torchex.reshape(t150, (4, 32, 4, 8))  # t151: "cpu f32[4, 32, 4, 8]"
    # t151 = prims.reshape(t150, (4, 32, 4, 8))  # t151: "cpu f32[4, 32, 4, 8]"
  del t150
  t152 = torchex.pad(t151, 0.0, [(0, 0, 0), (0, 0, 0), (1, 0, 1), (0, 0, 0)])  # t152: "cpu f32[4, 32, 8, 8]"
    # t152 = prims.pad(t151, 0.0, [(0, 0, 0), (0, 0, 0), (1, 0, 1), (0, 0, 0)])  # t152: "cpu f32[4, 32, 8, 8]"
  del t151
  (t153,) = fuser_8(t149, t152)
    # t153 = prims.add(t149, t152)  # t153: "cpu f32[4, 32, 8, 8]"
  del t149, t152
  t144 = torchex.slice_prim(t153, [0, 0, 0, 0], [4, 32, 8, 8], [1, 1, 1, 1])  # t144: "cpu f32[4, 32, 8, 8]"
    # t144 = prims.slice_prim(t153, [0, 0, 0, 0], [4, 32, 8, 8], [1, 1, 1, 1])  # t144: "cpu f32[4, 32, 8, 8]"
  del t153
  (t141,) = fuser_9(t36, t144)
    # t141 = prims.where(t36, t144, 0.0)  # t141: "cpu f32[4, 32, 8, 8]"
  del t36, t144
  t22 = torch.reshape(t_bn2_running_mean, (1, 32, 1, 1))  # t22: "cpu f32[1, 32, 1, 1]"
    # t22 = ltorch.reshape(t_bn2_running_mean, (1, 32, 1, 1))  # t22: "cpu f32[1, 32, 1, 1]"
      # t22 = prims.reshape(t_bn2_running_mean, (1, 32, 1, 1))  # t22: "cpu f32[1, 32, 1, 1]"
  del t_bn2_running_mean
  t23 = torch.reshape(t_bn2_running_var, (1, 32, 1, 1))  # t23: "cpu f32[1, 32, 1, 1]"
    # t23 = ltorch.reshape(t_bn2_running_var, (1, 32, 1, 1))  # t23: "cpu f32[1, 32, 1, 1]"
      # t23 = prims.reshape(t_bn2_running_var, (1, 32, 1, 1))  # t23: "cpu f32[1, 32, 1, 1]"
  del t_bn2_running_var
  (t27,) = fuser_10(t22, t21)
    # t26 = prims.broadcast_in_dim(t22, [4, 32, 8, 8], (0, 1, 2, 3))  # t26: "cpu f32[4, 32, 8, 8]"
    # t27 = prims.sub(t21, t26)  # t27: "cpu f32[4, 32, 8, 8]"
  del t22, t21
  (t25,) = fuser_11(t23)
    # t24 = prims.add(t23, 1e-05)  # t24: "cpu f32[1, 32, 1, 1]"
    # t25 = prims.rsqrt(t24)  # t25: "cpu f32[1, 32, 1, 1]"
  del t23
  (t28, t29) = fuser_12(t25, t27)
    # t28 = prims.broadcast_in_dim(t25, [4, 32, 8, 8], (0, 1, 2, 3))  # t28: "cpu f32[4, 32, 8, 8]"
    # t29 = prims.mul(t27, t28)  # t29: "cpu f32[4, 32, 8, 8]"
  del t25, t27
  t30 = torch.reshape(t_bn2_weight, (1, 32, 1, 1))  # t30: "cpu f32[1, 32, 1, 1]"
    # t30 = ltorch.reshape(t_bn2_weight, (1, 32, 1, 1))  # t30: "cpu f32[1, 32, 1, 1]"
      # t30 = prims.reshape(t_bn2_weight, (1, 32, 1, 1))  # t30: "cpu f32[1, 32, 1, 1]"
  del t_bn2_weight
  t135 = torchex.sum(t141, (0, 2, 3))  # t135: "cpu f32[32]"
    # t135 = prims.sum(t141, (0, 2, 3))  # t135: "cpu f32[32]"
  t136 = torchex.reshape(t135, (1, 32, 1, 1))  # t136: "cpu f32[1, 32, 1, 1]"
    # t136 = prims.reshape(t135, (1, 32, 1, 1))  # t136: "cpu f32[1, 32, 1, 1]"
  del t135
  t132 = torchex.reshape(t136, (32,))  # t132: "cpu f32[32]"
    # t132 = prims.reshape(t136, (32,))  # t132: "cpu f32[32]"
  del t136
  (t128, t129) = fuser_13(t30, t141, t29)
    # t31 = prims.broadcast_in_dim(t30, [4, 32, 8, 8], (0, 1, 2, 3))  # t31: "cpu f32[4, 32, 8, 8]"
    # t128 = prims.mul(t141, t31)  # t128: "cpu f32[4, 32, 8, 8]"
    # t129 = prims.mul(t141, t29)  # t129: "cpu f32[4, 32, 8, 8]"
  del t30, t141, t29
  t124 = torchex.sum(t129, (0, 2, 3))  # t124: "cpu f32[32]"
    # t124 = prims.sum(t129, (0, 2, 3))  # t124: "cpu f32[32]"
  del t129
  t125 = torchex.reshape(t124, (1, 32, 1, 1))  # t125: "cpu f32[1, 32, 1, 1]"
    # t125 = prims.reshape(t124, (1, 32, 1, 1))  # t125: "cpu f32[1, 32, 1, 1]"
  del t124
  t121 = torchex.reshape(t125, (32,))  # t121: "cpu f32[32]"
    # t121 = prims.reshape(t125, (32,))  # t121: "cpu f32[32]"
  del t125
  (t118,) = fuser_14(t128, t28)
    # t118 = prims.mul(t128, t28)  # t118: "cpu f32[4, 32, 8, 8]"
  del t128, t28
  (t111, t112, t113) = torchex.convolution_backward(t118, t20, t_conv2_weight, [32], [1, 1], [1, 1], [1, 1], False, [0, 0], 1, [True, True, True])
    # (t111, t112, t113) = prims.convolution_backward(t118, t20, t_conv2_weight, [32], [1, 1], [1, 1], [1, 1], False, [0, 0], 1, [True, True, True])
  del t118, t_conv2_weight
  t14 = torch.nn.functional.batch_norm(t0, t_bn1_running_mean, t_bn1_running_var, t_bn1_weight, t_bn1_bias, False, 0.1, 1e-05)  # t14: "cpu f32[4, 16, 16, 16]"
    # t14 = ltorch.batch_norm(t0, t_bn1_running_mean, t_bn1_running_var, t_bn1_weight, t_bn1_bias, False, 0.1, 1e-05)  # t14: "cpu f32[4, 16, 16, 16]"
      # t1 = ltorch.reshape(t_bn1_running_mean, (1, 16, 1, 1))  # t1: "cpu f32[1, 16, 1, 1]"
        # t1 = prims.reshape(t_bn1_running_mean, (1, 16, 1, 1))  # t1: "cpu f32[1, 16, 1, 1]"
      # t2 = ltorch.reshape(t_bn1_running_var, (1, 16, 1, 1))  # t2: "cpu f32[1, 16, 1, 1]"
        # t2 = prims.reshape(t_bn1_running_var, (1, 16, 1, 1))  # t2: "cpu f32[1, 16, 1, 1]"
      # t3 = ltorch.add(t2, 1e-05, alpha=1)  # t3: "cpu f32[1, 16, 1, 1]"
        # t3 = prims.add(t2, 1e-05)  # t3: "cpu f32[1, 16, 1, 1]"
      # t4 = ltorch.rsqrt(t3)  # t4: "cpu f32[1, 16, 1, 1]"
        # t4 = prims.rsqrt(t3)  # t4: "cpu f32[1, 16, 1, 1]"
      # t6 = ltorch.sub(t0, t1, alpha=1)  # t6: "cpu f32[4, 16, 16, 16]"
        # t5 = prims.broadcast_in_dim(t1, [4, 16, 16, 16], (0, 1, 2, 3))  # t5: "cpu f32[4, 16, 16, 16]"
        # t6 = prims.sub(t0, t5)  # t6: "cpu f32[4, 16, 16, 16]"
      # t8 = ltorch.mul(t6, t4)  # t8: "cpu f32[4, 16, 16, 16]"
        # t7 = prims.broadcast_in_dim(t4, [4, 16, 16, 16], (0, 1, 2, 3))  # t7: "cpu f32[4, 16, 16, 16]"
        # t8 = prims.mul(t6, t7)  # t8: "cpu f32[4, 16, 16, 16]"
      # t9 = ltorch.reshape(t_bn1_weight, (1, 16, 1, 1))  # t9: "cpu f32[1, 16, 1, 1]"
        # t9 = prims.reshape(t_bn1_weight, (1, 16, 1, 1))  # t9: "cpu f32[1, 16, 1, 1]"
      # t11 = ltorch.mul(t8, t9)  # t11: "cpu f32[4, 16, 16, 16]"
        # t10 = prims.broadcast_in_dim(t9, [4, 16, 16, 16], (0, 1, 2, 3))  # t10: "cpu f32[4, 16, 16, 16]"
        # t11 = prims.mul(t8, t10)  # t11: "cpu f32[4, 16, 16, 16]"
      # t12 = ltorch.reshape(t_bn1_bias, (1, 16, 1, 1))  # t12: "cpu f32[1, 16, 1, 1]"
        # t12 = prims.reshape(t_bn1_bias, (1, 16, 1, 1))  # t12: "cpu f32[1, 16, 1, 1]"
      # t14 = ltorch.add(t11, t12, alpha=1)  # t14: "cpu f32[4, 16, 16, 16]"
        # t13 = prims.broadcast_in_dim(t12, [4, 16, 16, 16], (0, 1, 2, 3))  # t13: "cpu f32[4, 16, 16, 16]"
        # t14 = prims.add(t11, t13)  # t14: "cpu f32[4, 16, 16, 16]"
  del t_bn1_bias
  (t15, t16) = fuser_15(t14)
    # t15 = prims.gt(t14, 0.0)  # t15: "cpu b8[4, 16, 16, 16]"
    # t16 = prims.where(t15, t14, 0.0)  # t16: "cpu f32[4, 16, 16, 16]"
  del t14
  t17 = torchex.pad(t16, -float('inf'), [(0, 0, 0), (0, 0, 0), (0, 0, 0), (0, 0, 0)])  # t17: "cpu f32[4, 16, 16, 16]"
    # t17 = prims.pad(t16, -float('inf'), [(0, 0, 0), (0, 0, 0), (0, 0, 0), (0, 0, 0)])  # t17: "cpu f32[4, 16, 16, 16]"
  del t16
  t18 = torchex.unfold(t17, 2, 2, 2)  # t18: "cpu f32[4, 16, 8, 16, 2]"
    # t18 = prims.unfold(t17, 2, 2, 2)  # t18: "cpu f32[4, 16, 8, 16, 2]"
  del t17
  t19 = torchex.unfold(t18, 3, 2, 2)  # t19: "cpu f32[4, 16, 8, 8, 2, 2]"
    # t19 = prims.unfold(t18, 3, 2, 2)  # t19: "cpu f32[4, 16, 8, 8, 2, 2]"
  del t18
  (t104,) = fuser_16(t20, t19)
    # t102 = prims.broadcast_in_dim(t20, [4, 16, 8, 8, 2, 2], (0, 1, 2, 3))  # t102: "cpu f32[4, 16, 8, 8, 2, 2]"
    # t103 = prims.eq(t19, t102)  # t103: "cpu b8[4, 16, 8, 8, 2, 2]"
    # t104 = prims.convert_element_type(t103, dtypes.float32)  # t104: "cpu f32[4, 16, 8, 8, 2, 2]"
  del t20, t19
  t105 = torchex.sum(t104, (4, 5))  # t105: "cpu f32[4, 16, 8, 8]"
    # t105 = prims.sum(t104, (4, 5))  # t105: "cpu f32[4, 16, 8, 8]"
  (t106,) = fuser_17(t111, t105)
    # t106 = prims.div(t111, t105)  # t106: "cpu f32[4, 16, 8, 8]"
  del t111, t105
  (t108,) = fuser_18(t106, t104)
    # t107 = prims.broadcast_in_dim(t106, [4, 16, 8, 8, 2, 2], (0, 1, 2, 3))  # t107: "cpu f32[4, 16, 8, 8, 2, 2]"
    # t108 = prims.mul(t107, t104)  # t108: "cpu f32[4, 16, 8, 8, 2, 2]"
  del t106, t104
  t93 = torchex.slice_prim(t108, [0, 0, 0, 0, 0, 0], [4, 16, 8, 8, 2, 1], [1, 1, 1, 1, 1, 1])  # t93: "cpu f32[4, 16, 8, 8, 2, 1]"
    # t93 = prims.slice_prim(t108, [0, 0, 0, 0, 0, 0], [4, 16, 8, 8, 2, 1], [1, 1, 1, 1, 1, 1])  # t93: "cpu f32[4, 16, 8, 8, 2, 1]"
  t94 = torchex.reshape(t93, (4, 16, 8, 8, 2))  # t94: "cpu f32[4, 16, 8, 8, 2]"
    # t94 = prims.reshape(t93, (4, 16, 8, 8, 2))  # t94: "cpu f32[4, 16, 8, 8, 2]"
  del t93
  t95 = torchex.pad(t94, 0.0, [(0, 0, 0), (0, 0, 0), (0, 0, 0), (0, 1, 1), (0, 0, 0)])  # t95: "cpu f32[4, 16, 8, 16, 2]"
    # t95 = prims.pad(t94, 0.0, [(0, 0, 0), (0, 0, 0), (0, 0, 0), (0, 1, 1), (0, 0, 0)])  # t95: "cpu f32[4, 16, 8, 16, 2]"
  del t94
  t96 = torchex.slice_prim(t108, [0, 0, 0, 0, 0, 1], [4, 16, 8, 8, 2, 2], [1, 1, 1, 1, 1, 1])  # t96: "cpu f32[4, 16, 8, 8, 2, 1]"
    # t96 = prims.slice_prim(t108, [0, 0, 0, 0, 0, 1], [4, 16, 8, 8, 2, 2], [1, 1, 1, 1, 1, 1])  # t96: "cpu f32[4, 16, 8, 8, 2, 1]"
  del t108
  t97 = torchex.reshape(t96, (4, 16, 8, 8, 2))  # t97: "cpu f32[4, 16, 8, 8, 2]"
    # t97 = prims.reshape(t96, (4, 16, 8, 8, 2))  # t97: "cpu f32[4, 16, 8, 8, 2]"
  del t96
  t98 = torchex.pad(t97, 0.0, [(0, 0, 0), (0, 0, 0), (0, 0, 0), (1, 0, 1), (0, 0, 0)])  # t98: "cpu f32[4, 16, 8, 16, 2]"
    # t98 = prims.pad(t97, 0.0, [(0, 0, 0), (0, 0, 0), (0, 0, 0), (1, 0, 1), (0, 0, 0)])  # t98: "cpu f32[4, 16, 8, 16, 2]"
  del t97
  (t99,) = fuser_19(t95, t98)
    # t99 = prims.add(t95, t98)  # t99: "cpu f32[4, 16, 8, 16, 2]"
  del t95, t98
  t84 = torchex.slice_prim(t99, [0, 0, 0, 0, 0], [4, 16, 8, 16, 1], [1, 1, 1, 1, 1])  # t84: "cpu f32[4, 16, 8, 16, 1]"
    # t84 = prims.slice_prim(t99, [0, 0, 0, 0, 0], [4, 16, 8, 16, 1], [1, 1, 1, 1, 1])  # t84: "cpu f32[4, 16, 8, 16, 1]"
  t85 = torchex.reshape(t84, (4, 16, 8, 16))  # t85: "cpu f32[4, 16, 8, 16]"
    # t85 = prims.reshape(t84, (4, 16, 8, 16))  # t85: "cpu f32[4, 16, 8, 16]"
  del t84
  t86 = torchex.pad(t85, 0.0, [(0, 0, 0), (0, 0, 0), (0, 1, 1), (0, 0, 0)])  # t86: "cpu f32[4, 16, 16, 16]"
    # t86 = prims.pad(t85, 0.0, [(0, 0, 0), (0, 0, 0), (0, 1, 1), (0, 0, 0)])  # t86: "cpu f32[4, 16, 16, 16]"
  del t85
  t87 = torchex.slice_prim(t99, [0, 0, 0, 0, 1], [4, 16, 8, 16, 2], [1, 1, 1, 1, 1])  # t87: "cpu f32[4, 16, 8, 16, 1]"
    # t87 = prims.slice_prim(t99, [0, 0, 0, 0, 1], [4, 16, 8, 16, 2], [1, 1, 1, 1, 1])  # t87: "cpu f32[4, 16, 8, 16, 1]"
  del t99
  t88 = torchex.reshape(t87, (4, 16, 8, 16))  # t88: "cpu f32[4, 16, 8, 16]"
    # t88 = prims.reshape(t87, (4, 16, 8, 16))  # t88: "cpu f32[4, 16, 8, 16]"
  del t87
  t89 = torchex.pad(t88, 0.0, [(0, 0, 0), (0, 0, 0), (1, 0, 1), (0, 0, 0)])  # t89: "cpu f32[4, 16, 16, 16]"
    # t89 = prims.pad(t88, 0.0, [(0, 0, 0), (0, 0, 0), (1, 0, 1), (0, 0, 0)])  # t89: "cpu f32[4, 16, 16, 16]"
  del t88
  (t90,) = fuser_20(t86, t89)
    # t90 = prims.add(t86, t89)  # t90: "cpu f32[4, 16, 16, 16]"
  del t86, t89
  t81 = torchex.slice_prim(t90, [0, 0, 0, 0], [4, 16, 16, 16], [1, 1, 1, 1])  # t81: "cpu f32[4, 16, 16, 16]"
    # t81 = prims.slice_prim(t90, [0, 0, 0, 0], [4, 16, 16, 16], [1, 1, 1, 1])  # t81: "cpu f32[4, 16, 16, 16]"
  del t90
  (t78,) = fuser_21(t15, t81)
    # t78 = prims.where(t15, t81, 0.0)  # t78: "cpu f32[4, 16, 16, 16]"
  del t15, t81
  t1 = torch.reshape(t_bn1_running_mean, (1, 16, 1, 1))  # t1: "cpu f32[1, 16, 1, 1]"
    # t1 = ltorch.reshape(t_bn1_running_mean, (1, 16, 1, 1))  # t1: "cpu f32[1, 16, 1, 1]"
      # t1 = prims.reshape(t_bn1_running_mean, (1, 16, 1, 1))  # t1: "cpu f32[1, 16, 1, 1]"
  del t_bn1_running_mean
  t2 = torch.reshape(t_bn1_running_var, (1, 16, 1, 1))  # t2: "cpu f32[1, 16, 1, 1]"
    # t2 = ltorch.reshape(t_bn1_running_var, (1, 16, 1, 1))  # t2: "cpu f32[1, 16, 1, 1]"
      # t2 = prims.reshape(t_bn1_running_var, (1, 16, 1, 1))  # t2: "cpu f32[1, 16, 1, 1]"
  del t_bn1_running_var
  (t6,) = fuser_22(t1, t0)
    # t5 = prims.broadcast_in_dim(t1, [4, 16, 16, 16], (0, 1, 2, 3))  # t5: "cpu f32[4, 16, 16, 16]"
    # t6 = prims.sub(t0, t5)  # t6: "cpu f32[4, 16, 16, 16]"
  del t1, t0
  (t4,) = fuser_23(t2)
    # t3 = prims.add(t2, 1e-05)  # t3: "cpu f32[1, 16, 1, 1]"
    # t4 = prims.rsqrt(t3)  # t4: "cpu f32[1, 16, 1, 1]"
  del t2
  (t7, t8) = fuser_24(t4, t6)
    # t7 = prims.broadcast_in_dim(t4, [4, 16, 16, 16], (0, 1, 2, 3))  # t7: "cpu f32[4, 16, 16, 16]"
    # t8 = prims.mul(t6, t7)  # t8: "cpu f32[4, 16, 16, 16]"
  del t4, t6
  t9 = torch.reshape(t_bn1_weight, (1, 16, 1, 1))  # t9: "cpu f32[1, 16, 1, 1]"
    # t9 = ltorch.reshape(t_bn1_weight, (1, 16, 1, 1))  # t9: "cpu f32[1, 16, 1, 1]"
      # t9 = prims.reshape(t_bn1_weight, (1, 16, 1, 1))  # t9: "cpu f32[1, 16, 1, 1]"
  del t_bn1_weight
  t72 = torchex.sum(t78, (0, 2, 3))  # t72: "cpu f32[16]"
    # t72 = prims.sum(t78, (0, 2, 3))  # t72: "cpu f32[16]"
  t73 = torchex.reshape(t72, (1, 16, 1, 1))  # t73: "cpu f32[1, 16, 1, 1]"
    # t73 = prims.reshape(t72, (1, 16, 1, 1))  # t73: "cpu f32[1, 16, 1, 1]"
  del t72
  t69 = torchex.reshape(t73, (16,))  # t69: "cpu f32[16]"
    # t69 = prims.reshape(t73, (16,))  # t69: "cpu f32[16]"
  del t73
  (t65, t66) = fuser_25(t9, t78, t8)
    # t10 = prims.broadcast_in_dim(t9, [4, 16, 16, 16], (0, 1, 2, 3))  # t10: "cpu f32[4, 16, 16, 16]"
    # t65 = prims.mul(t78, t10)  # t65: "cpu f32[4, 16, 16, 16]"
    # t66 = prims.mul(t78, t8)  # t66: "cpu f32[4, 16, 16, 16]"
  del t9, t78, t8
  t61 = torchex.sum(t66, (0, 2, 3))  # t61: "cpu f32[16]"
    # t61 = prims.sum(t66, (0, 2, 3))  # t61: "cpu f32[16]"
  del t66
  t62 = torchex.reshape(t61, (1, 16, 1, 1))  # t62: "cpu f32[1, 16, 1, 1]"
    # t62 = prims.reshape(t61, (1, 16, 1, 1))  # t62: "cpu f32[1, 16, 1, 1]"
  del t61
  t58 = torchex.reshape(t62, (16,))  # t58: "cpu f32[16]"
    # t58 = prims.reshape(t62, (16,))  # t58: "cpu f32[16]"
  del t62
  (t55,) = fuser_26(t65, t7)
    # t55 = prims.mul(t65, t7)  # t55: "cpu f32[4, 16, 16, 16]"
  del t65, t7
  (_, t49, t50) = torchex.convolution_backward(t55, x, t_conv1_weight, [16], [1, 1], [1, 1], [1, 1], False, [0, 0], 1, [False, True, True])
    # (_, t49, t50) = prims.convolution_backward(t55, x, t_conv1_weight, [16], [1, 1], [1, 1], [1, 1], False, [0, 0], 1, [False, True, True])
  del t55, x, t_conv1_weight
  return (None, t49, t50, t58, t69, t112, t113, t121, t132, t190, t191, None, None, None, None, None, None)
