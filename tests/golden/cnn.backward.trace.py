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
  # t24: "cpu f32[4, 16, 8, 8]"
  # t25: "cpu f32[4, 32, 8, 8]"
  # t53: "cpu f32[4, 32]"
  x, t_conv1_weight, t_bn1_weight, t_bn1_bias, t_conv2_weight, t_bn2_weight, t_bn2_bias, t_fc_weight, t_bn1_running_mean, t_bn1_running_var, t_bn2_running_mean, t_bn2_running_var, t0, t24, t25, t53, = saved_for_backward
  # cotangents: "Collection"
  # t202: "cpu f32[4, 10]"
  t202, = cotangents
  t196 = torch.matmul(t202, t_fc_weight)  # t196: "cpu f32[4, 32]"
    # t196 = ltorch.matmul(t202, t_fc_weight)  # t196: "cpu f32[4, 32]"
      # t196 = prims.matmul(t202, t_fc_weight)  # t196: "cpu f32[4, 32]"
  del t_fc_weight
  t197 = torchex.reshape(t202, (4, 10))  # t197: "cpu f32[4, 10]"
    # t197 = prims.reshape(t202, (4, 10))  # t197: "cpu f32[4, 10]"
  del t202
  t198 = torchex.transpose(t197, (1, 0))  # t198: "cpu f32[10, 4]"
    # t198 = prims.transpose(t197, (1, 0))  # t198: "cpu f32[10, 4]"
  t199 = torchex.reshape(t53, (4, 32))  # t199: "cpu f32[4, 32]"
    # t199 = prims.reshape(t53, (4, 32))  # t199: "cpu f32[4, 32]"
  del t53
  t200 = torchex.matmul(t198, t199)  # t200: "cpu f32[10, 32]"
    # t200 = prims.matmul(t198, t199)  # t200: "cpu f32[10, 32]"
  del t198, t199
  t201 = torchex.sum(t197, (0,))  # t201: "cpu f32[10]"
    # t201 = prims.sum(t197, (0,))  # t201: "cpu f32[10]"
  del t197
  t193 = torchex.reshape(t196, (4, 32, 1, 1))  # t193: "cpu f32[4, 32, 1, 1]"
    # t193 = prims.reshape(t196, (4, 32, 1, 1))  # t193: "cpu f32[4, 32, 1, 1]"
  del t196
  (t190,) = fuser_2(t193)
    # t190 = prims.div(t193, 16.0)  # t190: "cpu f32[4, 32, 1, 1]"
  del t193
  t187 = torchex.broadcast_in_dim(t190, [4, 32, 1, 4, 1, 4], (0, 1, 2, 4))  # t187: "cpu f32[4, 32, 1, 4, 1, 4]"
    # t187 = prims.broadcast_in_dim(t190, [4, 32, 1, 4, 1, 4], (0, 1, 2, 4))  # t187: "cpu f32[4, 32, 1, 4, 1, 4]"
  del t190
  t184 = torchex.reshape(t187, (4, 32, 4, 4))  # t184: "cpu f32[4, 32, 4, 4]"
    # t184 = prims.reshape(t187, (4, 32, 4, 4))  # t184: "cpu f32[4, 32, 4, 4]"
  del t187
  t39 = torch.nn.functional.batch_norm(t25, t_bn2_running_mean, t_bn2_running_var, t_bn2_weight, t_bn2_bias, False, 0.1, 1e-05)  # t39: "cpu f32[4, 32, 8, 8]"
    # t39 = ltorch.batch_norm(t25, t_bn2_running_mean, t_bn2_running_var, t_bn2_weight, t_bn2_bias, False, 0.1, 1e-05)  # t39: "cpu f32[4, 32, 8, 8]"
      # t26 = ltorch.reshape(t_bn2_running_mean, (1, 32, 1, 1))  # t26: "cpu f32[1, 32, 1, 1]"
        # t26 = prims.reshape(t_bn2_running_mean, (1, 32, 1, 1))  # t26: "cpu f32[1, 32, 1, 1]"
      # t27 = ltorch.reshape(t_bn2_running_var, (1, 32, 1, 1))  # t27: "cpu f32[1, 32, 1, 1]"
        # t27 = prims.reshape(t_bn2_running_var, (1, 32, 1, 1))  # t27: "cpu f32[1, 32, 1, 1]"
      # t28 = ltorch.add(t27, 1e-05, alpha=1)  # t28: "cpu f32[1, 32, 1, 1]"
        # t28 = prims.add(t27, 1e-05)  # t28: "cpu f32[1, 32, 1, 1]"
      # t29 = ltorch.rsqrt(t28)  # t29: "cpu f32[1, 32, 1, 1]"
        # t29 = prims.rsqrt(t28)  # t29: "cpu f32[1, 32, 1, 1]"
      # t31 = ltorch.sub(t25, t26, alpha=1)  # t31: "cpu f32[4, 32, 8, 8]"
        # t30 = prims.broadcast_in_dim(t26, [4, 32, 8, 8], (0, 1, 2, 3))  # t30: "cpu f32[4, 32, 8, 8]"
        # t31 = prims.sub(t25, t30)  # t31: "cpu f32[4, 32, 8, 8]"
      # t33 = ltorch.mul(t31, t29)  # t33: "cpu f32[4, 32, 8, 8]"
        # t32 = prims.broadcast_in_dim(t29, [4, 32, 8, 8], (0, 1, 2, 3))  # t32: "cpu f32[4, 32, 8, 8]"
        # t33 = prims.mul(t31, t32)  # t33: "cpu f32[4, 32, 8, 8]"
      # t34 = ltorch.reshape(t_bn2_weight, (1, 32, 1, 1))  # t34: "cpu f32[1, 32, 1, 1]"
        # t34 = prims.reshape(t_bn2_weight, (1, 32, 1, 1))  # t34: "cpu f32[1, 32, 1, 1]"
      # t36 = ltorch.mul(t33, t34)  # t36: "cpu f32[4, 32, 8, 8]"
        # t35 = prims.broadcast_in_dim(t34, [4, 32, 8, 8], (0, 1, 2, 3))  # t35: "cpu f32[4, 32, 8, 8]"
        # t36 = prims.mul(t33, t35)  # t36: "cpu f32[4, 32, 8, 8]"
      # t37 = ltorch.reshape(t_bn2_bias, (1, 32, 1, 1))  # t37: "cpu f32[1, 32, 1, 1]"
        # t37 = prims.reshape(t_bn2_bias, (1, 32, 1, 1))  # t37: "cpu f32[1, 32, 1, 1]"
      # t39 = ltorch.add(t36, t37, alpha=1)  # t39: "cpu f32[4, 32, 8, 8]"
        # t38 = prims.broadcast_in_dim(t37, [4, 32, 8, 8], (0, 1, 2, 3))  # t38: "cpu f32[4, 32, 8, 8]"
        # t39 = prims.add(t36, t38)  # t39: "cpu f32[4, 32, 8, 8]"
  del t_bn2_bias
  (t40, t41) = fuser_3(t39)
    # t40 = prims.gt(t39, 0.0)  # t40: "cpu b8[4, 32, 8, 8]"
    # t41 = prims.where(t40, t39, 0.0)  # t41: "cpu f32[4, 32, 8, 8]"
  del t39
  t42 = torchex.pad(t41, -float('inf'), [(0, 0, 0), (0, 0, 0), (0, 0, 0), (0, 0, 0)])  # t42: "cpu f32[4, 32, 8, 8]"
    # t42 = prims.pad(t41, -float('inf'), [(0, 0, 0), (0, 0, 0), (0, 0, 0), (0, 0, 0)])  # t42: "cpu f32[4, 32, 8, 8]"
  del t41
  t43 = torchex.unfold(t42, 2, 2, 2)  # t43: "cpu f32[4, 32, 4, 8, 2]"
    # t43 = prims.unfold(t42, 2, 2, 2)  # t43: "cpu f32[4, 32, 4, 8, 2]"
  del t42
  t44 = torchex.unfold(t43, 3, 2, 2)  # t44: "cpu f32[4, 32, 4, 4, 2, 2]"
    # t44 = prims.unfold(t43, 3, 2, 2)  # t44: "cpu f32[4, 32, 4, 4, 2, 2]"
  del t43
  t45 = torch.reshape(t44, (4, 32, 4, 4, 4))  # t45: "cpu f32[4, 32, 4, 4, 4]"
    # t45 = ltorch.reshape(t44, (4, 32, 4, 4, 4))  # t45: "cpu f32[4, 32, 4, 4, 4]"
      # t45 = prims.reshape(t44, (4, 32, 4, 4, 4))  # t45: "cpu f32[4, 32, 4, 4, 4]"
  del t44
  t46 = torchex.argmax(t45, 4)  # t46: "cpu i64[4, 32, 4, 4]"
    # t46 = prims.argmax(t45, 4)  # t46: "cpu i64[4, 32, 4, 4]"
  t47 = torchex.broadcast_in_dim(t46, [4, 32, 4, 4, 1], (0, 1, 2, 3))  # t47: "cpu i64[4, 32, 4, 4, 1]"
    # t47 = prims.broadcast_in_dim(t46, [4, 32, 4, 4, 1], (0, 1, 2, 3))  # t47: "cpu i64[4, 32, 4, 4, 1]"
  del t46
  t181 = torchex.reshape(t184, (4, 32, 4, 4, 1))  # t181: "cpu f32[4, 32, 4, 4, 1]"
    # t181 = prims.reshape(t184, (4, 32, 4, 4, 1))  # t181: "cpu f32[4, 32, 4, 4, 1]"
  del t184
  t177 = torch.zeros_like(t45)  # t177: "cpu f32[4, 32, 4, 4, 4]"
    # t177 = ltorch.zeros_like(t45, device=None, dtype=None)  # t177: "cpu f32[4, 32, 4, 4, 4]"
      # t177 = prims.full((4, 32, 4, 4, 4), 0.0, device=devices.Device("cpu"), dtype=dtypes.float32)  # t177: "cpu f32[4, 32, 4, 4, 4]"
  del t45
  t178 = torchex.scatter_add(t177, t47, t181, 4)  # t178: "cpu f32[4, 32, 4, 4, 4]"
    # t178 = prims.scatter_add(t177, t47, t181, 4)  # t178: "cpu f32[4, 32, 4, 4, 4]"
  del t177, t47, t181
  t174 = torchex.reshape(t178, (4, 32, 4, 4, 2, 2))  # t174: "cpu f32[4, 32, 4, 4, 2, 2]"
    # t174 = prims.reshape(t178, (4, 32, 4, 4, 2, 2))  # t174: "cpu f32[4, 32, 4, 4, 2, 2]"
  del t178
  t165 = torchex.slice_prim(t174, [0, 0, 0, 0, 0, 0], [4, 32, 4, 4, 2, 1], [1, 1, 1, 1, 1, 1])  # t165: "cpu f32[4, 32, 4, 4, 2, 1]"
    # t165 = prims.slice_prim(t174, [0, 0, 0, 0, 0, 0], [4, 32, 4, 4, 2, 1], [1, 1, 1, 1, 1, 1])  # t165: "cpu f32[4, 32, 4, 4, 2, 1]"
  t166 = torchex.reshape(t165, (4, 32, 4, 4, 2))  # t166: "cpu f32[4, 32, 4, 4, 2]"
    # t166 = prims.reshape(t165, (4, 32, 4, 4, 2))  # t166: "cpu f32[4, 32, 4, 4, 2]"
  del t165
  t167 = torchex.pad(t166, 0.0, [(0, 0, 0), (0, 0, 0), (0, 0, 0), (0, 1, 1), (0, 0, 0)])  # t167: "cpu f32[4, 32, 4, 8, 2]"
    # t167 = prims.pad(t166, 0.0, [(0, 0, 0), (0, 0, 0), (0, 0, 0), (0, 1, 1), (0, 0, 0)])  # t167: "cpu f32[4, 32, 4, 8, 2]"
  del t166
  t168 = torchex.slice_prim(t174, [0, 0, 0, 0, 0, 1], [4, 32, 4, 4, 2, 2], [1, 1, 1, 1, 1, 1])  # t168: "cpu f32[4, 32, 4, 4, 2, 1]"
    # t168 = prims.slice_prim(t174, [0, 0, 0, 0, 0, 1], [4, 32, 4, 4, 2, 2], [1, 1, 1, 1, 1, 1])  # t168: "cpu f32[4, 32, 4, 4, 2, 1]"
  del t174
  t169 = torchex.reshape(t168, (4, 32, 4, 4, 2))  # t169: "cpu f32[4, 32, 4, 4, 2]"
    # t169 = prims.reshape(t168, (4, 32, 4, 4, 2))  # t169: "cpu f32[4, 32, 4, 4, 2]"
  del t168
  t170 = torchex.pad(t169, 0.0, [(0, 0, 0), (0, 0, 0), (0, 0, 0), (1, 0, 1), (0, 0, 0)])  # t170: "cpu f32[4, 32, 4, 8, 2]"
    # t170 = prims.pad(t169, 0.0, [(0, 0, 0), (0, 0, 0), (0, 0, 0), (1, 0, 1), (0, 0, 0)])  # t170: "cpu f32[4, 32, 4, 8, 2]"
  del t169
  (t171,) = fuser_4(t167, t170)
    # t171 = prims.add(t167, t170)  # t171: "cpu f32[4, 32, 4, 8, 2]"
  del t167, t170
  t156 = torchex.slice_prim(t171, [0, 0, 0, 0, 0], [4, 32, 4, 8, 1], [1, 1, 1, 1, 1])  # t156: "cpu f32[4, 32, 4, 8, 1]"
    # t156 = prims.slice_prim(t171, [0, 0, 0, 0, 0], [4, 32, 4, 8, 1], [1, 1, 1, 1, 1])  # t156: "cpu f32[4, 32, 4, 8, 1]"
  t157 = torchex.reshape(t156, (4, 32, 4, 8))  # t157: "cpu f32[4, 32, 4, 8]"
    # t157 = prims.reshape(t156, (4, 32, 4, 8))  # t157: "cpu f32[4, 32, 4, 8]"
  del t156
  t158 = torchex.pad(t157, 0.0, [(0, 0, 0), (0, 0, 0), (0, 1, 1), (0, 0, 0)])  # t158: "cpu f32[4, 32, 8, 8]"
    # t158 = prims.pad(t157, 0.0, [(0, 0, 0), (0, 0, 0), (0, 1, 1), (0, 0, 0)])  # t158: "cpu f32[4, 32, 8, 8]"
  del t157
  t159 = torchex.slice_prim(t171, [0, 0, 0, 0, 1], [4, 32, 4, 8, 2], [1, 1, 1, 1, 1])  # t159: "cpu f32[4, 32, 4, 8, 1]"
    # t159 = prims.slice_prim(t171, [0, 0, 0, 0, 1], [4, 32, 4, 8, 2], [1, 1, 1, 1, 1])  # t159: "cpu f32[4, 32, 4, 8, 1]"
  del t171
  t160 = torchex.reshape(t159, (4, 32, 4, 8))  # t160: "cpu f32[4, 32, 4, 8]"
    # t160 = prims.reshape(t159, (4, 32, 4, 8))  # t160: "cpu f32[4, 32, 4, 8]"
  del t159
  t161 = torchex.pad(t160, 0.0, [(0, 0, 0), (0, 0, 0), (1, 0, 1), (0, 0, 0)])  # t161: "cpu f32[4, 32, 8, 8]"
    # t161 = prims.pad(t160, 0.0, [(0, 0, 0), (0, 0, 0), (1, 0, 1), (0, 0, 0)])  # t161: "cpu f32[4, 32, 8, 8]"
  del t160
  (t162,) = fuser_5(t158, t161)
    # t162 = prims.add(t158, t161)  # t162: "cpu f32[4, 32, 8, 8]"
  del t158, t161
  t153 = torchex.slice_prim(t162, [0, 0, 0, 0], [4, 32, 8, 8], [1, 1, 1, 1])  # t153: "cpu f32[4, 32, 8, 8]"
    # t153 = prims.slice_prim(t162, [0, 0, 0, 0], [4, 32, 8, 8], [1, 1, 1, 1])  # t153: "cpu f32[4, 32, 8, 8]"
  del t162
  (t150,) = fuser_6(t40, t153)
    # t150 = prims.where(t40, t153, 0.0)  # t150: "cpu f32[4, 32, 8, 8]"
  del t40, t153
  t26 = torch.reshape(t_bn2_running_mean, (1, 32, 1, 1))  # t26: "cpu f32[1, 32, 1, 1]"
    # t26 = ltorch.reshape(t_bn2_running_mean, (1, 32, 1, 1))  # t26: "cpu f32[1, 32, 1, 1]"
      # t26 = prims.reshape(t_bn2_running_mean, (1, 32, 1, 1))  # t26: "cpu f32[1, 32, 1, 1]"
  del t_bn2_running_mean
  t27 = torch.reshape(t_bn2_running_var, (1, 32, 1, 1))  # t27: "cpu f32[1, 32, 1, 1]"
    # t27 = ltorch.reshape(t_bn2_running_var, (1, 32, 1, 1))  # t27: "cpu f32[1, 32, 1, 1]"
      # t27 = prims.reshape(t_bn2_running_var, (1, 32, 1, 1))  # t27: "cpu f32[1, 32, 1, 1]"
  del t_bn2_running_var
  (t31,) = fuser_7(t26, t25)
    # t30 = prims.broadcast_in_dim(t26, [4, 32, 8, 8], (0, 1, 2, 3))  # t30: "cpu f32[4, 32, 8, 8]"
    # t31 = prims.sub(t25, t30)  # t31: "cpu f32[4, 32, 8, 8]"
  del t26, t25
  (t29,) = fuser_8(t27)
    # t28 = prims.add(t27, 1e-05)  # t28: "cpu f32[1, 32, 1, 1]"
    # t29 = prims.rsqrt(t28)  # t29: "cpu f32[1, 32, 1, 1]"
  del t27
  (t32, t33) = fuser_9(t29, t31)
    # t32 = prims.broadcast_in_dim(t29, [4, 32, 8, 8], (0, 1, 2, 3))  # t32: "cpu f32[4, 32, 8, 8]"
    # t33 = prims.mul(t31, t32)  # t33: "cpu f32[4, 32, 8, 8]"
  del t29, t31
  t34 = torch.reshape(t_bn2_weight, (1, 32, 1, 1))  # t34: "cpu f32[1, 32, 1, 1]"
    # t34 = ltorch.reshape(t_bn2_weight, (1, 32, 1, 1))  # t34: "cpu f32[1, 32, 1, 1]"
      # t34 = prims.reshape(t_bn2_weight, (1, 32, 1, 1))  # t34: "cpu f32[1, 32, 1, 1]"
  del t_bn2_weight
  t144 = torchex.sum(t150, (0, 2, 3))  # t144: "cpu f32[32]"
    # t144 = prims.sum(t150, (0, 2, 3))  # t144: "cpu f32[32]"
  t145 = torchex.reshape(t144, (1, 32, 1, 1))  # t145: "cpu f32[1, 32, 1, 1]"
    # t145 = prims.reshape(t144, (1, 32, 1, 1))  # t145: "cpu f32[1, 32, 1, 1]"
  del t144
  t141 = torchex.reshape(t145, (32,))  # t141: "cpu f32[32]"
    # t141 = prims.reshape(t145, (32,))  # t141: "cpu f32[32]"
  del t145
  (t137, t138) = fuser_10(t34, t150, t33)
    # t35 = prims.broadcast_in_dim(t34, [4, 32, 8, 8], (0, 1, 2, 3))  # t35: "cpu f32[4, 32, 8, 8]"
    # t137 = prims.mul(t150, t35)  # t137: "cpu f32[4, 32, 8, 8]"
    # t138 = prims.mul(t150, t33)  # t138: "cpu f32[4, 32, 8, 8]"
  del t34, t150, t33
  t133 = torchex.sum(t138, (0, 2, 3))  # t133: "cpu f32[32]"
    # t133 = prims.sum(t138, (0, 2, 3))  # t133: "cpu f32[32]"
  del t138
  t134 = torchex.reshape(t133, (1, 32, 1, 1))  # t134: "cpu f32[1, 32, 1, 1]"
    # t134 = prims.reshape(t133, (1, 32, 1, 1))  # t134: "cpu f32[1, 32, 1, 1]"
  del t133
  t130 = torchex.reshape(t134, (32,))  # t130: "cpu f32[32]"
    # t130 = prims.reshape(t134, (32,))  # t130: "cpu f32[32]"
  del t134
  (t127,) = fuser_11(t137, t32)
    # t127 = prims.mul(t137, t32)  # t127: "cpu f32[4, 32, 8, 8]"
  del t137, t32
  (t120, t121, t122) = torchex.convolution_backward(t127, t24, t_conv2_weight, [32], [1, 1], [1, 1], [1, 1], False, [0, 0], 1, [True, True, True])
    # (t120, t121, t122) = prims.convolution_backward(t127, t24, t_conv2_weight, [32], [1, 1], [1, 1], [1, 1], False, [0, 0], 1, [True, True, True])
  del t127, t24, t_conv2_weight
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
  (t15, t16) = fuser_12(t14)
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
  t20 = torch.reshape(t19, (4, 16, 8, 8, 4))  # t20: "cpu f32[4, 16, 8, 8, 4]"
    # t20 = ltorch.reshape(t19, (4, 16, 8, 8, 4))  # t20: "cpu f32[4, 16, 8, 8, 4]"
      # t20 = prims.reshape(t19, (4, 16, 8, 8, 4))  # t20: "cpu f32[4, 16, 8, 8, 4]"
  del t19
  t21 = torchex.argmax(t20, 4)  # t21: "cpu i64[4, 16, 8, 8]"
    # t21 = prims.argmax(t20, 4)  # t21: "cpu i64[4, 16, 8, 8]"
  t22 = torchex.broadcast_in_dim(t21, [4, 16, 8, 8, 1], (0, 1, 2, 3))  # t22: "cpu i64[4, 16, 8, 8, 1]"
    # t22 = prims.broadcast_in_dim(t21, [4, 16, 8, 8, 1], (0, 1, 2, 3))  # t22: "cpu i64[4, 16, 8, 8, 1]"
  del t21
  t117 = torchex.reshape(t120, (4, 16, 8, 8, 1))  # t117: "cpu f32[4, 16, 8, 8, 1]"
    # t117 = prims.reshape(t120, (4, 16, 8, 8, 1))  # t117: "cpu f32[4, 16, 8, 8, 1]"
  del t120
  t113 = torch.zeros_like(t20)  # t113: "cpu f32[4, 16, 8, 8, 4]"
    # t113 = ltorch.zeros_like(t20, device=None, dtype=None)  # t113: "cpu f32[4, 16, 8, 8, 4]"
      # t113 = prims.full((4, 16, 8, 8, 4), 0.0, device=devices.Device("cpu"), dtype=dtypes.float32)  # t113: "cpu f32[4, 16, 8, 8, 4]"
  del t20
  t114 = torchex.scatter_add(t113, t22, t117, 4)  # t114: "cpu f32[4, 16, 8, 8, 4]"
    # t114 = prims.scatter_add(t113, t22, t117, 4)  # t114: "cpu f32[4, 16, 8, 8, 4]"
  del t113, t22, t117
  t110 = torchex.reshape(t114, (4, 16, 8, 8, 2, 2))  # t110: "cpu f32[4, 16, 8, 8, 2, 2]"
    # t110 = prims.reshape(t114, (4, 16, 8, 8, 2, 2))  # t110: "cpu f32[4, 16, 8, 8, 2, 2]"
  del t114
  t101 = torchex.slice_prim(t110, [0, 0, 0, 0, 0, 0], [4, 16, 8, 8, 2, 1], [1, 1, 1, 1, 1, 1])  # t101: "cpu f32[4, 16, 8, 8, 2, 1]"
    # t101 = prims.slice_prim(t110, [0, 0, 0, 0, 0, 0], [4, 16, 8, 8, 2, 1], [1, 1, 1, 1, 1, 1])  # t101: "cpu f32[4, 16, 8, 8, 2, 1]"
  t102 = torchex.reshape(t101, (4, 16, 8, 8, 2))  # t102: "cpu f32[4, 16, 8, 8, 2]"
    # t102 = prims.reshape(t101, (4, 16, 8, 8, 2))  # t102: "cpu f32[4, 16, 8, 8, 2]"
  del t101
  t103 = torchex.pad(t102, 0.0, [(0, 0, 0), (0, 0, 0), (0, 0, 0), (0, 1, 1), (0, 0, 0)])  # t103: "cpu f32[4, 16, 8, 16, 2]"
    # t103 = prims.pad(t102, 0.0, [(0, 0, 0), (0, 0, 0), (0, 0, 0), (0, 1, 1), (0, 0, 0)])  # t103: "cpu f32[4, 16, 8, 16, 2]"
  del t102
  t104 = torchex.slice_prim(t110, [0, 0, 0, 0, 0, 1], [4, 16, 8, 8, 2, 2], [1, 1, 1, 1, 1, 1])  # t104: "cpu f32[4, 16, 8, 8, 2, 1]"
    # t104 = prims.slice_prim(t110, [0, 0, 0, 0, 0, 1], [4, 16, 8, 8, 2, 2], [1, 1, 1, 1, 1, 1])  # t104: "cpu f32[4, 16, 8, 8, 2, 1]"
  del t110
  t105 = torchex.reshape(t104, (4, 16, 8, 8, 2))  # t105: "cpu f32[4, 16, 8, 8, 2]"
    # t105 = prims.reshape(t104, (4, 16, 8, 8, 2))  # t105: "cpu f32[4, 16, 8, 8, 2]"
  del t104
  t106 = torchex.pad(t105, 0.0, [(0, 0, 0), (0, 0, 0), (0, 0, 0), (1, 0, 1), (0, 0, 0)])  # t106: "cpu f32[4, 16, 8, 16, 2]"
    # t106 = prims.pad(t105, 0.0, [(0, 0, 0), (0, 0, 0), (0, 0, 0), (1, 0, 1), (0, 0, 0)])  # t106: "cpu f32[4, 16, 8, 16, 2]"
  del t105
  (t107,) = fuser_13(t103, t106)
    # t107 = prims.add(t103, t106)  # t107: "cpu f32[4, 16, 8, 16, 2]"
  del t103, t106
  t92 = torchex.slice_prim(t107, [0, 0, 0, 0, 0], [4, 16, 8, 16, 1], [1, 1, 1, 1, 1])  # t92: "cpu f32[4, 16, 8, 16, 1]"
    # t92 = prims.slice_prim(t107, [0, 0, 0, 0, 0], [4, 16, 8, 16, 1], [1, 1, 1, 1, 1])  # t92: "cpu f32[4, 16, 8, 16, 1]"
  t93 = torchex.reshape(t92, (4, 16, 8, 16))  # t93: "cpu f32[4, 16, 8, 16]"
    # t93 = prims.reshape(t92, (4, 16, 8, 16))  # t93: "cpu f32[4, 16, 8, 16]"
  del t92
  t94 = torchex.pad(t93, 0.0, [(0, 0, 0), (0, 0, 0), (0, 1, 1), (0, 0, 0)])  # t94: "cpu f32[4, 16, 16, 16]"
    # t94 = prims.pad(t93, 0.0, [(0, 0, 0), (0, 0, 0), (0, 1, 1), (0, 0, 0)])  # t94: "cpu f32[4, 16, 16, 16]"
  del t93
  t95 = torchex.slice_prim(t107, [0, 0, 0, 0, 1], [4, 16, 8, 16, 2], [1, 1, 1, 1, 1])  # t95: "cpu f32[4, 16, 8, 16, 1]"
    # t95 = prims.slice_prim(t107, [0, 0, 0, 0, 1], [4, 16, 8, 16, 2], [1, 1, 1, 1, 1])  # t95: "cpu f32[4, 16, 8, 16, 1]"
  del t107
  t96 = torchex.reshape(t95, (4, 16, 8, 16))  # t96: "cpu f32[4, 16, 8, 16]"
    # t96 = prims.reshape(t95, (4, 16, 8, 16))  # t96: "cpu f32[4, 16, 8, 16]"
  del t95
  t97 = torchex.pad(t96, 0.0, [(0, 0, 0), (0, 0, 0), (1, 0, 1), (0, 0, 0)])  # t97: "cpu f32[4, 16, 16, 16]"
    # t97 = prims.pad(t96, 0.0, [(0, 0, 0), (0, 0, 0), (1, 0, 1), (0, 0, 0)])  # t97: "cpu f32[4, 16, 16, 16]"
  del t96
  (t98,) = fuser_14(t94, t97)
    # t98 = prims.add(t94, t97)  # t98: "cpu f32[4, 16, 16, 16]"
  del t94, t97
  t89 = torchex.slice_prim(t98, [0, 0, 0, 0], [4, 16, 16, 16], [1, 1, 1, 1])  # t89: "cpu f32[4, 16, 16, 16]"
    # t89 = prims.slice_prim(t98, [0, 0, 0, 0], [4, 16, 16, 16], [1, 1, 1, 1])  # t89: "cpu f32[4, 16, 16, 16]"
  del t98
  (t86,) = fuser_15(t15, t89)
    # t86 = prims.where(t15, t89, 0.0)  # t86: "cpu f32[4, 16, 16, 16]"
  del t15, t89
  t1 = torch.reshape(t_bn1_running_mean, (1, 16, 1, 1))  # t1: "cpu f32[1, 16, 1, 1]"
    # t1 = ltorch.reshape(t_bn1_running_mean, (1, 16, 1, 1))  # t1: "cpu f32[1, 16, 1, 1]"
      # t1 = prims.reshape(t_bn1_running_mean, (1, 16, 1, 1))  # t1: "cpu f32[1, 16, 1, 1]"
  del t_bn1_running_mean
  t2 = torch.reshape(t_bn1_running_var, (1, 16, 1, 1))  # t2: "cpu f32[1, 16, 1, 1]"
    # t2 = ltorch.reshape(t_bn1_running_var, (1, 16, 1, 1))  # t2: "cpu f32[1, 16, 1, 1]"
      # t2 = prims.reshape(t_bn1_running_var, (1, 16, 1, 1))  # t2: "cpu f32[1, 16, 1, 1]"
  del t_bn1_running_var
  (t6,) = fuser_16(t1, t0)
    # t5 = prims.broadcast_in_dim(t1, [4, 16, 16, 16], (0, 1, 2, 3))  # t5: "cpu f32[4, 16, 16, 16]"
    # t6 = prims.sub(t0, t5)  # t6: "cpu f32[4, 16, 16, 16]"
  del t1, t0
  (t4,) = fuser_17(t2)
    # t3 = prims.add(t2, 1e-05)  # t3: "cpu f32[1, 16, 1, 1]"
    # t4 = prims.rsqrt(t3)  # t4: "cpu f32[1, 16, 1, 1]"
  del t2
  (t7, t8) = fuser_18(t4, t6)
    # t7 = prims.broadcast_in_dim(t4, [4, 16, 16, 16], (0, 1, 2, 3))  # t7: "cpu f32[4, 16, 16, 16]"
    # t8 = prims.mul(t6, t7)  # t8: "cpu f32[4, 16, 16, 16]"
  del t4, t6
  t9 = torch.reshape(t_bn1_weight, (1, 16, 1, 1))  # t9: "cpu f32[1, 16, 1, 1]"
    # t9 = ltorch.reshape(t_bn1_weight, (1, 16, 1, 1))  # t9: "cpu f32[1, 16, 1, 1]"
      # t9 = prims.reshape(t_bn1_weight, (1, 16, 1, 1))  # t9: "cpu f32[1, 16, 1, 1]"
  del t_bn1_weight
  t80 = torchex.sum(t86, (0, 2, 3))  # t80: "cpu f32[16]"
    # t80 = prims.sum(t86, (0, 2, 3))  # t80: "cpu f32[16]"
  t81 = torchex.reshape(t80, (1, 16, 1, 1))  # t81: "cpu f32[1, 16, 1, 1]"
    # t81 = prims.reshape(t80, (1, 16, 1, 1))  # t81: "cpu f32[1, 16, 1, 1]"
  del t80
  t77 = torchex.reshape(t81, (16,))  # t77: "cpu f32[16]"
    # t77 = prims.reshape(t81, (16,))  # t77: "cpu f32[16]"
  del t81
  (t73, t74) = fuser_19(t9, t86, t8)
    # t10 = prims.broadcast_in_dim(t9, [4, 16, 16, 16], (0, 1, 2, 3))  # t10: "cpu f32[4, 16, 16, 16]"
    # t73 = prims.mul(t86, t10)  # t73: "cpu f32[4, 16, 16, 16]"
    # t74 = prims.mul(t86, t8)  # t74: "cpu f32[4, 16, 16, 16]"
  del t9, t86, t8
  t69 = torchex.sum(t74, (0, 2, 3))  # t69: "cpu f32[16]"
    # t69 = prims.sum(t74, (0, 2, 3))  # t69: "cpu f32[16]"
  del t74
  t70 = torchex.reshape(t69, (1, 16, 1, 1))  # t70: "cpu f32[1, 16, 1, 1]"
    # t70 = prims.reshape(t69, (1, 16, 1, 1))  # t70: "cpu f32[1, 16, 1, 1]"
  del t69
  t66 = torchex.reshape(t70, (16,))  # t66: "cpu f32[16]"
    # t66 = prims.reshape(t70, (16,))  # t66: "cpu f32[16]"
  del t70
  (t63,) = fuser_20(t73, t7)
    # t63 = prims.mul(t73, t7)  # t63: "cpu f32[4, 16, 16, 16]"
  del t73, t7
  (_, t57, t58) = torchex.convolution_backward(t63, x, t_conv1_weight, [16], [1, 1], [1, 1], [1, 1], False, [0, 0], 1, [False, True, True])
    # (_, t57, t58) = prims.convolution_backward(t63, x, t_conv1_weight, [16], [1, 1], [1, 1], [1, 1], False, [0, 0], 1, [False, True, True])
  del t63, x, t_conv1_weight
  return (None, t57, t58, t66, t77, t121, t122, t130, t141, t200, t201, None, None, None, None, None, None)
