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
  # t206: "cpu f32[4, 10]"
  t206, = cotangents
  t200 = torch.matmul(t206, t_fc_weight)  # t200: "cpu f32[4, 32]"
    # t200 = ltorch.matmul(t206, t_fc_weight)  # t200: "cpu f32[4, 32]"
      # t200 = prims.matmul(t206, t_fc_weight)  # t200: "cpu f32[4, 32]"
  del t_fc_weight
  t201 = torchex.reshape(t206, (4, 10))  # t201: "cpu f32[4, 10]"
    # t201 = prims.reshape(t206, (4, 10))  # t201: "cpu f32[4, 10]"
  del t206
  t202 = torchex.transpose(t201, (1, 0))  # t202: "cpu f32[10, 4]"
    # t202 = prims.transpose(t201, (1, 0))  # t202: "cpu f32[10, 4]"
  t203 = torchex.reshape(t53, (4, 32))  # t203: "cpu f32[4, 32]"
    # t203 = prims.reshape(t53, (4, 32))  # t203: "cpu f32[4, 32]"
  del t53
  t204 = torchex.matmul(t202, t203)  # t204: "cpu f32[10, 32]"
    # t204 = prims.matmul(t202, t203)  # t204: "cpu f32[10, 32]"
  del t202, t203
  t205 = torchex.sum(t201, (0,))  # t205: "cpu f32[10]"
    # t205 = prims.sum(t201, (0,))  # t205: "cpu f32[10]"
  del t201
  t197 = torchex.reshape(t200, (4, 32, 1, 1))  # t197: "cpu f32[4, 32, 1, 1]"
    # t197 = prims.reshape(t200, (4, 32, 1, 1))  # t197: "cpu f32[4, 32, 1, 1]"
  del t200
  (t194,) = fuser_2(t197)
    # t194 = prims.div(t197, 16.0)  # t194: "cpu f32[4, 32, 1, 1]"
  del t197
  t191 = torchex.broadcast_in_dim(t194, [4, 32, 1, 4, 1, 4], (0, 1, 2, 4))  # t191: "cpu f32[4, 32, 1, 4, 1, 4]"
    # t191 = prims.broadcast_in_dim(t194, [4, 32, 1, 4, 1, 4], (0, 1, 2, 4))  # t191: "cpu f32[4, 32, 1, 4, 1, 4]"
  del t194
  t188 = torchex.reshape(t191, (4, 32, 4, 4))  # t188: "cpu f32[4, 32, 4, 4]"
    # t188 = prims.reshape(t191, (4, 32, 4, 4))  # t188: "cpu f32[4, 32, 4, 4]"
  del t191
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
  (t41,) = fuser_3(t39)
    # t150 = prims.lt(t39, 0.0)  # t150: "cpu b8[4, 32, 8, 8]"
    # t41 = prims.where(t150, 0.0, t39)  # t41: "cpu f32[4, 32, 8, 8]"
  del t39
  t42 = torchex.pad(t41, -float('inf'), [(0, 0, 0), (0, 0, 0), (0, 0, 0), (0, 0, 0)])  # t42: "cpu f32[4, 32, 8, 8]"
    # t42 = prims.pad(t41, -float('inf'), [(0, 0, 0), (0, 0, 0), (0, 0, 0), (0, 0, 0)])  # t42: "cpu f32[4, 32, 8, 8]"
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
  t185 = torchex.reshape(t188, (4, 32, 4, 4, 1))  # t185: "cpu f32[4, 32, 4, 4, 1]"
    # t185 = prims.reshape(t188, (4, 32, 4, 4, 1))  # t185: "cpu f32[4, 32, 4, 4, 1]"
  del t188
  t181 = torch.zeros_like(t45)  # t181: "cpu f32[4, 32, 4, 4, 4]"
    # t181 = ltorch.zeros_like(t45, device=None, dtype=None)  # t181: "cpu f32[4, 32, 4, 4, 4]"
      # t181 = prims.full((4, 32, 4, 4, 4), 0.0, device=devices.Device("cpu"), dtype=dtypes.float32)  # t181: "cpu f32[4, 32, 4, 4, 4]"
  del t45
  t182 = torchex.scatter_add(t181, t47, t185, 4)  # t182: "cpu f32[4, 32, 4, 4, 4]"
    # t182 = prims.scatter_add(t181, t47, t185, 4)  # t182: "cpu f32[4, 32, 4, 4, 4]"
  del t181, t47, t185
  t178 = torchex.reshape(t182, (4, 32, 4, 4, 2, 2))  # t178: "cpu f32[4, 32, 4, 4, 2, 2]"
    # t178 = prims.reshape(t182, (4, 32, 4, 4, 2, 2))  # t178: "cpu f32[4, 32, 4, 4, 2, 2]"
  del t182
  t169 = torchex.slice_prim(t178, [0, 0, 0, 0, 0, 0], [4, 32, 4, 4, 2, 1], [1, 1, 1, 1, 1, 1])  # t169: "cpu f32[4, 32, 4, 4, 2, 1]"
    # t169 = prims.slice_prim(t178, [0, 0, 0, 0, 0, 0], [4, 32, 4, 4, 2, 1], [1, 1, 1, 1, 1, 1])  # t169: "cpu f32[4, 32, 4, 4, 2, 1]"
  t170 = torchex.reshape(t169, (4, 32, 4, 4, 2))  # t170: "cpu f32[4, 32, 4, 4, 2]"
    # t170 = prims.reshape(t169, (4, 32, 4, 4, 2))  # t170: "cpu f32[4, 32, 4, 4, 2]"
  del t169
  t171 = torchex.pad(t170, 0.0, [(0, 0, 0), (0, 0, 0), (0, 0, 0), (0, 1, 1), (0, 0, 0)])  # t171: "cpu f32[4, 32, 4, 8, 2]"
    # t171 = prims.pad(t170, 0.0, [(0, 0, 0), (0, 0, 0), (0, 0, 0), (0, 1, 1), (0, 0, 0)])  # t171: "cpu f32[4, 32, 4, 8, 2]"
  del t170
  t172 = torchex.slice_prim(t178, [0, 0, 0, 0, 0, 1], [4, 32, 4, 4, 2, 2], [1, 1, 1, 1, 1, 1])  # t172: "cpu f32[4, 32, 4, 4, 2, 1]"
    # t172 = prims.slice_prim(t178, [0, 0, 0, 0, 0, 1], [4, 32, 4, 4, 2, 2], [1, 1, 1, 1, 1, 1])  # t172: "cpu f32[4, 32, 4, 4, 2, 1]"
  del t178
  t173 = torchex.reshape(t172, (4, 32, 4, 4, 2))  # t173: "cpu f32[4, 32, 4, 4, 2]"
    # t173 = prims.reshape(t172, (4, 32, 4, 4, 2))  # t173: "cpu f32[4, 32, 4, 4, 2]"
  del t172
  t174 = torchex.pad(t173, 0.0, [(0, 0, 0), (0, 0, 0), (0, 0, 0), (1, 0, 1), (0, 0, 0)])  # t174: "cpu f32[4, 32, 4, 8, 2]"
    # t174 = prims.pad(t173, 0.0, [(0, 0, 0), (0, 0, 0), (0, 0, 0), (1, 0, 1), (0, 0, 0)])  # t174: "cpu f32[4, 32, 4, 8, 2]"
  del t173
  (t175,) = fuser_4(t171, t174)
    # t175 = prims.add(t171, t174)  # t175: "cpu f32[4, 32, 4, 8, 2]"
  del t171, t174
  t160 = torchex.slice_prim(t175, [0, 0, 0, 0, 0], [4, 32, 4, 8, 1], [1, 1, 1, 1, 1])  # t160: "cpu f32[4, 32, 4, 8, 1]"
    # t160 = prims.slice_prim(t175, [0, 0, 0, 0, 0], [4, 32, 4, 8, 1], [1, 1, 1, 1, 1])  # t160: "cpu f32[4, 32, 4, 8, 1]"
  t161 = torchex.reshape(t160, (4, 32, 4, 8))  # t161: "cpu f32[4, 32, 4, 8]"
    # t161 = prims.reshape(t160, (4, 32, 4, 8))  # t161: "cpu f32[4, 32, 4, 8]"
  del t160
  t162 = torchex.pad(t161, 0.0, [(0, 0, 0), (0, 0, 0), (0, 1, 1), (0, 0, 0)])  # t162: "cpu f32[4, 32, 8, 8]"
    # t162 = prims.pad(t161, 0.0, [(0, 0, 0), (0, 0, 0), (0, 1, 1), (0, 0, 0)])  # t162: "cpu f32[4, 32, 8, 8]"
  del t161
  t163 = torchex.slice_prim(t175, [0, 0, 0, 0, 1], [4, 32, 4, 8, 2], [1, 1, 1, 1, 1])  # t163: "cpu f32[4, 32, 4, 8, 1]"
    # t163 = prims.slice_prim(t175, [0, 0, 0, 0, 1], [4, 32, 4, 8, 2], [1, 1, 1, 1, 1])  # t163: "cpu f32[4, 32, 4, 8, 1]"
  del t175
  t164 = torchex.reshape(t163, (4, 32, 4, 8))  # t164: "cpu f32[4, 32, 4, 8]"
    # t164 = prims.reshape(t163, (4, 32, 4, 8))  # t164: "cpu f32[4, 32, 4, 8]"
  del t163
  t165 = torchex.pad(t164, 0.0, [(0, 0, 0), (0, 0, 0), (1, 0, 1), (0, 0, 0)])  # t165: "cpu f32[4, 32, 8, 8]"
    # t165 = prims.pad(t164, 0.0, [(0, 0, 0), (0, 0, 0), (1, 0, 1), (0, 0, 0)])  # t165: "cpu f32[4, 32, 8, 8]"
  del t164
  (t166,) = fuser_5(t162, t165)
    # t166 = prims.add(t162, t165)  # t166: "cpu f32[4, 32, 8, 8]"
  del t162, t165
  t157 = torchex.slice_prim(t166, [0, 0, 0, 0], [4, 32, 8, 8], [1, 1, 1, 1])  # t157: "cpu f32[4, 32, 8, 8]"
    # t157 = prims.slice_prim(t166, [0, 0, 0, 0], [4, 32, 8, 8], [1, 1, 1, 1])  # t157: "cpu f32[4, 32, 8, 8]"
  del t166
  (t154,) = fuser_6(t41, t157)
    # t153 = prims.le(t41, 0.0)  # t153: "cpu b8[4, 32, 8, 8]"
    # t154 = prims.where(t153, 0.0, t157)  # t154: "cpu f32[4, 32, 8, 8]"
  del t41, t157
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
  (t33,) = fuser_9(t29, t31)
    # t32 = prims.broadcast_in_dim(t29, [4, 32, 8, 8], (0, 1, 2, 3))  # t32: "cpu f32[4, 32, 8, 8]"
    # t33 = prims.mul(t31, t32)  # t33: "cpu f32[4, 32, 8, 8]"
  del t31
  t34 = torch.reshape(t_bn2_weight, (1, 32, 1, 1))  # t34: "cpu f32[1, 32, 1, 1]"
    # t34 = ltorch.reshape(t_bn2_weight, (1, 32, 1, 1))  # t34: "cpu f32[1, 32, 1, 1]"
      # t34 = prims.reshape(t_bn2_weight, (1, 32, 1, 1))  # t34: "cpu f32[1, 32, 1, 1]"
  del t_bn2_weight
  t146 = torchex.sum(t154, (0, 2, 3))  # t146: "cpu f32[32]"
    # t146 = prims.sum(t154, (0, 2, 3))  # t146: "cpu f32[32]"
  t147 = torchex.reshape(t146, (1, 32, 1, 1))  # t147: "cpu f32[1, 32, 1, 1]"
    # t147 = prims.reshape(t146, (1, 32, 1, 1))  # t147: "cpu f32[1, 32, 1, 1]"
  del t146
  t143 = torchex.reshape(t147, (32,))  # t143: "cpu f32[32]"
    # t143 = prims.reshape(t147, (32,))  # t143: "cpu f32[32]"
  del t147
  (t139, t140) = fuser_10(t34, t154, t33)
    # t35 = prims.broadcast_in_dim(t34, [4, 32, 8, 8], (0, 1, 2, 3))  # t35: "cpu f32[4, 32, 8, 8]"
    # t139 = prims.mul(t154, t35)  # t139: "cpu f32[4, 32, 8, 8]"
    # t140 = prims.mul(t154, t33)  # t140: "cpu f32[4, 32, 8, 8]"
  del t34, t154, t33
  t135 = torchex.sum(t140, (0, 2, 3))  # t135: "cpu f32[32]"
    # t135 = prims.sum(t140, (0, 2, 3))  # t135: "cpu f32[32]"
  del t140
  t136 = torchex.reshape(t135, (1, 32, 1, 1))  # t136: "cpu f32[1, 32, 1, 1]"
    # t136 = prims.reshape(t135, (1, 32, 1, 1))  # t136: "cpu f32[1, 32, 1, 1]"
  del t135
  t132 = torchex.reshape(t136, (32,))  # t132: "cpu f32[32]"
    # t132 = prims.reshape(t136, (32,))  # t132: "cpu f32[32]"
  del t136
  (t129,) = fuser_11(t29, t139)
    # t32 = prims.broadcast_in_dim(t29, [4, 32, 8, 8], (0, 1, 2, 3))  # t32: "cpu f32[4, 32, 8, 8]"
    # t129 = prims.mul(t139, t32)  # t129: "cpu f32[4, 32, 8, 8]"
  del t29, t139
  (t122, t123, t124) = torchex.convolution_backward(t129, t24, t_conv2_weight, [32], [1, 1], [1, 1], [1, 1], False, [0, 0], 1, [True, True, True])
    # (t122, t123, t124) = prims.convolution_backward(t129, t24, t_conv2_weight, [32], [1, 1], [1, 1], [1, 1], False, [0, 0], 1, [True, True, True])
  del t129, t24, t_conv2_weight
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
  (t16,) = fuser_12(t14)
    # t84 = prims.lt(t14, 0.0)  # t84: "cpu b8[4, 16, 16, 16]"
    # t16 = prims.where(t84, 0.0, t14)  # t16: "cpu f32[4, 16, 16, 16]"
  del t14
  t17 = torchex.pad(t16, -float('inf'), [(0, 0, 0), (0, 0, 0), (0, 0, 0), (0, 0, 0)])  # t17: "cpu f32[4, 16, 16, 16]"
    # t17 = prims.pad(t16, -float('inf'), [(0, 0, 0), (0, 0, 0), (0, 0, 0), (0, 0, 0)])  # t17: "cpu f32[4, 16, 16, 16]"
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
  t119 = torchex.reshape(t122, (4, 16, 8, 8, 1))  # t119: "cpu f32[4, 16, 8, 8, 1]"
    # t119 = prims.reshape(t122, (4, 16, 8, 8, 1))  # t119: "cpu f32[4, 16, 8, 8, 1]"
  del t122
  t115 = torch.zeros_like(t20)  # t115: "cpu f32[4, 16, 8, 8, 4]"
    # t115 = ltorch.zeros_like(t20, device=None, dtype=None)  # t115: "cpu f32[4, 16, 8, 8, 4]"
      # t115 = prims.full((4, 16, 8, 8, 4), 0.0, device=devices.Device("cpu"), dtype=dtypes.float32)  # t115: "cpu f32[4, 16, 8, 8, 4]"
  del t20
  t116 = torchex.scatter_add(t115, t22, t119, 4)  # t116: "cpu f32[4, 16, 8, 8, 4]"
    # t116 = prims.scatter_add(t115, t22, t119, 4)  # t116: "cpu f32[4, 16, 8, 8, 4]"
  del t115, t22, t119
  t112 = torchex.reshape(t116, (4, 16, 8, 8, 2, 2))  # t112: "cpu f32[4, 16, 8, 8, 2, 2]"
    # t112 = prims.reshape(t116, (4, 16, 8, 8, 2, 2))  # t112: "cpu f32[4, 16, 8, 8, 2, 2]"
  del t116
  t103 = torchex.slice_prim(t112, [0, 0, 0, 0, 0, 0], [4, 16, 8, 8, 2, 1], [1, 1, 1, 1, 1, 1])  # t103: "cpu f32[4, 16, 8, 8, 2, 1]"
    # t103 = prims.slice_prim(t112, [0, 0, 0, 0, 0, 0], [4, 16, 8, 8, 2, 1], [1, 1, 1, 1, 1, 1])  # t103: "cpu f32[4, 16, 8, 8, 2, 1]"
  t104 = torchex.reshape(t103, (4, 16, 8, 8, 2))  # t104: "cpu f32[4, 16, 8, 8, 2]"
    # t104 = prims.reshape(t103, (4, 16, 8, 8, 2))  # t104: "cpu f32[4, 16, 8, 8, 2]"
  del t103
  t105 = torchex.pad(t104, 0.0, [(0, 0, 0), (0, 0, 0), (0, 0, 0), (0, 1, 1), (0, 0, 0)])  # t105: "cpu f32[4, 16, 8, 16, 2]"
    # t105 = prims.pad(t104, 0.0, [(0, 0, 0), (0, 0, 0), (0, 0, 0), (0, 1, 1), (0, 0, 0)])  # t105: "cpu f32[4, 16, 8, 16, 2]"
  del t104
  t106 = torchex.slice_prim(t112, [0, 0, 0, 0, 0, 1], [4, 16, 8, 8, 2, 2], [1, 1, 1, 1, 1, 1])  # t106: "cpu f32[4, 16, 8, 8, 2, 1]"
    # t106 = prims.slice_prim(t112, [0, 0, 0, 0, 0, 1], [4, 16, 8, 8, 2, 2], [1, 1, 1, 1, 1, 1])  # t106: "cpu f32[4, 16, 8, 8, 2, 1]"
  del t112
  t107 = torchex.reshape(t106, (4, 16, 8, 8, 2))  # t107: "cpu f32[4, 16, 8, 8, 2]"
    # t107 = prims.reshape(t106, (4, 16, 8, 8, 2))  # t107: "cpu f32[4, 16, 8, 8, 2]"
  del t106
  t108 = torchex.pad(t107, 0.0, [(0, 0, 0), (0, 0, 0), (0, 0, 0), (1, 0, 1), (0, 0, 0)])  # t108: "cpu f32[4, 16, 8, 16, 2]"
    # t108 = prims.pad(t107, 0.0, [(0, 0, 0), (0, 0, 0), (0, 0, 0), (1, 0, 1), (0, 0, 0)])  # t108: "cpu f32[4, 16, 8, 16, 2]"
  del t107
  (t109,) = fuser_13(t105, t108)
    # t109 = prims.add(t105, t108)  # t109: "cpu f32[4, 16, 8, 16, 2]"
  del t105, t108
  t94 = torchex.slice_prim(t109, [0, 0, 0, 0, 0], [4, 16, 8, 16, 1], [1, 1, 1, 1, 1])  # t94: "cpu f32[4, 16, 8, 16, 1]"
    # t94 = prims.slice_prim(t109, [0, 0, 0, 0, 0], [4, 16, 8, 16, 1], [1, 1, 1, 1, 1])  # t94: "cpu f32[4, 16, 8, 16, 1]"
  t95 = torchex.reshape(t94, (4, 16, 8, 16))  # t95: "cpu f32[4, 16, 8, 16]"
    # t95 = prims.reshape(t94, (4, 16, 8, 16))  # t95: "cpu f32[4, 16, 8, 16]"
  del t94
  t96 = torchex.pad(t95, 0.0, [(0, 0, 0), (0, 0, 0), (0, 1, 1), (0, 0, 0)])  # t96: "cpu f32[4, 16, 16, 16]"
    # t96 = prims.pad(t95, 0.0, [(0, 0, 0), (0, 0, 0), (0, 1, 1), (0, 0, 0)])  # t96: "cpu f32[4, 16, 16, 16]"
  del t95
  t97 = torchex.slice_prim(t109, [0, 0, 0, 0, 1], [4, 16, 8, 16, 2], [1, 1, 1, 1, 1])  # t97: "cpu f32[4, 16, 8, 16, 1]"
    # t97 = prims.slice_prim(t109, [0, 0, 0, 0, 1], [4, 16, 8, 16, 2], [1, 1, 1, 1, 1])  # t97: "cpu f32[4, 16, 8, 16, 1]"
  del t109
  t98 = torchex.reshape(t97, (4, 16, 8, 16))  # t98: "cpu f32[4, 16, 8, 16]"
    # t98 = prims.reshape(t97, (4, 16, 8, 16))  # t98: "cpu f32[4, 16, 8, 16]"
  del t97
  t99 = torchex.pad(t98, 0.0, [(0, 0, 0), (0, 0, 0), (1, 0, 1), (0, 0, 0)])  # t99: "cpu f32[4, 16, 16, 16]"
    # t99 = prims.pad(t98, 0.0, [(0, 0, 0), (0, 0, 0), (1, 0, 1), (0, 0, 0)])  # t99: "cpu f32[4, 16, 16, 16]"
  del t98
  (t100,) = fuser_14(t96, t99)
    # t100 = prims.add(t96, t99)  # t100: "cpu f32[4, 16, 16, 16]"
  del t96, t99
  t91 = torchex.slice_prim(t100, [0, 0, 0, 0], [4, 16, 16, 16], [1, 1, 1, 1])  # t91: "cpu f32[4, 16, 16, 16]"
    # t91 = prims.slice_prim(t100, [0, 0, 0, 0], [4, 16, 16, 16], [1, 1, 1, 1])  # t91: "cpu f32[4, 16, 16, 16]"
  del t100
  (t88,) = fuser_15(t16, t91)
    # t87 = prims.le(t16, 0.0)  # t87: "cpu b8[4, 16, 16, 16]"
    # t88 = prims.where(t87, 0.0, t91)  # t88: "cpu f32[4, 16, 16, 16]"
  del t16, t91
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
  (t8,) = fuser_18(t4, t6)
    # t7 = prims.broadcast_in_dim(t4, [4, 16, 16, 16], (0, 1, 2, 3))  # t7: "cpu f32[4, 16, 16, 16]"
    # t8 = prims.mul(t6, t7)  # t8: "cpu f32[4, 16, 16, 16]"
  del t6
  t9 = torch.reshape(t_bn1_weight, (1, 16, 1, 1))  # t9: "cpu f32[1, 16, 1, 1]"
    # t9 = ltorch.reshape(t_bn1_weight, (1, 16, 1, 1))  # t9: "cpu f32[1, 16, 1, 1]"
      # t9 = prims.reshape(t_bn1_weight, (1, 16, 1, 1))  # t9: "cpu f32[1, 16, 1, 1]"
  del t_bn1_weight
  t80 = torchex.sum(t88, (0, 2, 3))  # t80: "cpu f32[16]"
    # t80 = prims.sum(t88, (0, 2, 3))  # t80: "cpu f32[16]"
  t81 = torchex.reshape(t80, (1, 16, 1, 1))  # t81: "cpu f32[1, 16, 1, 1]"
    # t81 = prims.reshape(t80, (1, 16, 1, 1))  # t81: "cpu f32[1, 16, 1, 1]"
  del t80
  t77 = torchex.reshape(t81, (16,))  # t77: "cpu f32[16]"
    # t77 = prims.reshape(t81, (16,))  # t77: "cpu f32[16]"
  del t81
  (t73, t74) = fuser_19(t9, t88, t8)
    # t10 = prims.broadcast_in_dim(t9, [4, 16, 16, 16], (0, 1, 2, 3))  # t10: "cpu f32[4, 16, 16, 16]"
    # t73 = prims.mul(t88, t10)  # t73: "cpu f32[4, 16, 16, 16]"
    # t74 = prims.mul(t88, t8)  # t74: "cpu f32[4, 16, 16, 16]"
  del t9, t88, t8
  t69 = torchex.sum(t74, (0, 2, 3))  # t69: "cpu f32[16]"
    # t69 = prims.sum(t74, (0, 2, 3))  # t69: "cpu f32[16]"
  del t74
  t70 = torchex.reshape(t69, (1, 16, 1, 1))  # t70: "cpu f32[1, 16, 1, 1]"
    # t70 = prims.reshape(t69, (1, 16, 1, 1))  # t70: "cpu f32[1, 16, 1, 1]"
  del t69
  t66 = torchex.reshape(t70, (16,))  # t66: "cpu f32[16]"
    # t66 = prims.reshape(t70, (16,))  # t66: "cpu f32[16]"
  del t70
  (t63,) = fuser_20(t4, t73)
    # t7 = prims.broadcast_in_dim(t4, [4, 16, 16, 16], (0, 1, 2, 3))  # t7: "cpu f32[4, 16, 16, 16]"
    # t63 = prims.mul(t73, t7)  # t63: "cpu f32[4, 16, 16, 16]"
  del t4, t73
  (_, t57, t58) = torchex.convolution_backward(t63, x, t_conv1_weight, [16], [1, 1], [1, 1], [1, 1], False, [0, 0], 1, [False, True, True])
    # (_, t57, t58) = prims.convolution_backward(t63, x, t_conv1_weight, [16], [1, 1], [1, 1], [1, 1], False, [0, 0], 1, [False, True, True])
  del t63, x, t_conv1_weight
  return (None, t57, t58, t66, t77, t123, t124, t132, t143, t204, t205, None, None, None, None, None, None)
