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
  # t13: "cpu f32[2, 16, 64]"
  # t21: "cpu f32[2, 4, 16, 16]"
  # t23: "cpu f32[2, 4, 16, 16]"
  # t24: "cpu f32[2, 4, 16, 16]"
  # t38: "cpu f32[2, 4, 16, 16]"
  # t42: "cpu f32[2, 16, 64]"
  # t44: "cpu f32[2, 16, 64]"
  # t58: "cpu f32[2, 16, 64]"
  # t59: "cpu f32[2, 16, 256]"
  x, t_attn_c_attn_weight, t_attn_c_proj_weight, t_ln_2_weight, t_mlp_c_fc_weight, t_mlp_c_proj_weight, t_attn_bias, t13, t21, t23, t24, t38, t42, t44, t58, t59, = saved_for_backward
  # cotangents: "Collection"
  # t303: "cpu f32[2, 16, 64]"
  t303, = cotangents
  t295 = torch.matmul(t303, t_mlp_c_proj_weight)  # t295: "cpu f32[2, 16, 256]"
    # t295 = ltorch.matmul(t303, t_mlp_c_proj_weight)  # t295: "cpu f32[2, 16, 256]"
      # t293 = ltorch.reshape(t303, (32, 64))  # t293: "cpu f32[32, 64]"
        # t293 = prims.reshape(t303, (32, 64))  # t293: "cpu f32[32, 64]"
      # t294 = prims.matmul(t293, t_mlp_c_proj_weight)  # t294: "cpu f32[32, 256]"
      # t295 = ltorch.reshape(t294, (2, 16, 256))  # t295: "cpu f32[2, 16, 256]"
        # t295 = prims.reshape(t294, (2, 16, 256))  # t295: "cpu f32[2, 16, 256]"
  del t_mlp_c_proj_weight
  t296 = torchex.reshape(t303, (32, 64))  # t296: "cpu f32[32, 64]"
    # t296 = prims.reshape(t303, (32, 64))  # t296: "cpu f32[32, 64]"
  t297 = torchex.transpose(t296, (1, 0))  # t297: "cpu f32[64, 32]"
    # t297 = prims.transpose(t296, (1, 0))  # t297: "cpu f32[64, 32]"
  (t68,) = fuser_6(t59)
    # t60 = prims.mul(t59, t59)  # t60: "cpu f32[2, 16, 256]"
    # t61 = prims.mul(t60, t59)  # t61: "cpu f32[2, 16, 256]"
    # t62 = prims.mul(0.044715, t61)  # t62: "cpu f32[2, 16, 256]"
    # t63 = prims.add(t59, t62)  # t63: "cpu f32[2, 16, 256]"
    # t64 = prims.mul(0.7978845608028654, t63)  # t64: "cpu f32[2, 16, 256]"
    # t65 = prims.mul(0.5, t59)  # t65: "cpu f32[2, 16, 256]"
    # t66 = prims.tanh(t64)  # t66: "cpu f32[2, 16, 256]"
    # t67 = prims.add(1.0, t66)  # t67: "cpu f32[2, 16, 256]"
    # t68 = prims.mul(t65, t67)  # t68: "cpu f32[2, 16, 256]"
  t298 = torchex.reshape(t68, (32, 256))  # t298: "cpu f32[32, 256]"
    # t298 = prims.reshape(t68, (32, 256))  # t298: "cpu f32[32, 256]"
  del t68
  t299 = torchex.matmul(t297, t298)  # t299: "cpu f32[64, 256]"
    # t299 = prims.matmul(t297, t298)  # t299: "cpu f32[64, 256]"
  del t297, t298
  t300 = torchex.sum(t296, (0,))  # t300: "cpu f32[64]"
    # t300 = prims.sum(t296, (0,))  # t300: "cpu f32[64]"
  del t296
  (t307,) = fuser_7(t59, t295)
    # t60 = prims.mul(t59, t59)  # t60: "cpu f32[2, 16, 256]"
    # t61 = prims.mul(t60, t59)  # t61: "cpu f32[2, 16, 256]"
    # t62 = prims.mul(0.044715, t61)  # t62: "cpu f32[2, 16, 256]"
    # t63 = prims.add(t59, t62)  # t63: "cpu f32[2, 16, 256]"
    # t64 = prims.mul(0.7978845608028654, t63)  # t64: "cpu f32[2, 16, 256]"
    # t66 = prims.tanh(t64)  # t66: "cpu f32[2, 16, 256]"
    # t65 = prims.mul(0.5, t59)  # t65: "cpu f32[2, 16, 256]"
    # t67 = prims.add(1.0, t66)  # t67: "cpu f32[2, 16, 256]"
    # t289 = prims.mul(t295, t67)  # t289: "cpu f32[2, 16, 256]"
    # t290 = prims.mul(t295, t65)  # t290: "cpu f32[2, 16, 256]"
    # t282 = prims.mul(t66, t66)  # t282: "cpu f32[2, 16, 256]"
    # t283 = prims.sub(1.0, t282)  # t283: "cpu f32[2, 16, 256]"
    # t284 = prims.mul(t290, t283)  # t284: "cpu f32[2, 16, 256]"
    # t279 = prims.mul(t289, 0.5)  # t279: "cpu f32[2, 16, 256]"
    # t276 = prims.mul(t284, 0.7978845608028654)  # t276: "cpu f32[2, 16, 256]"
    # t304 = prims.add(t279, t276)  # t304: "cpu f32[2, 16, 256]"
    # t271 = prims.mul(t276, 0.044715)  # t271: "cpu f32[2, 16, 256]"
    # t267 = prims.mul(t271, t59)  # t267: "cpu f32[2, 16, 256]"
    # t268 = prims.mul(t271, t60)  # t268: "cpu f32[2, 16, 256]"
    # t305 = prims.add(t304, t268)  # t305: "cpu f32[2, 16, 256]"
    # t263 = prims.mul(t267, t59)  # t263: "cpu f32[2, 16, 256]"
    # t306 = prims.add(t305, t263)  # t306: "cpu f32[2, 16, 256]"
    # t307 = prims.add(t306, t263)  # t307: "cpu f32[2, 16, 256]"
  del t59, t295
  t255 = torch.matmul(t307, t_mlp_c_fc_weight)  # t255: "cpu f32[2, 16, 64]"
    # t255 = ltorch.matmul(t307, t_mlp_c_fc_weight)  # t255: "cpu f32[2, 16, 64]"
      # t253 = ltorch.reshape(t307, (32, 256))  # t253: "cpu f32[32, 256]"
        # t253 = prims.reshape(t307, (32, 256))  # t253: "cpu f32[32, 256]"
      # t254 = prims.matmul(t253, t_mlp_c_fc_weight)  # t254: "cpu f32[32, 64]"
      # t255 = ltorch.reshape(t254, (2, 16, 64))  # t255: "cpu f32[2, 16, 64]"
        # t255 = prims.reshape(t254, (2, 16, 64))  # t255: "cpu f32[2, 16, 64]"
  del t_mlp_c_fc_weight
  t256 = torchex.reshape(t307, (32, 256))  # t256: "cpu f32[32, 256]"
    # t256 = prims.reshape(t307, (32, 256))  # t256: "cpu f32[32, 256]"
  del t307
  t257 = torchex.transpose(t256, (1, 0))  # t257: "cpu f32[256, 32]"
    # t257 = prims.transpose(t256, (1, 0))  # t257: "cpu f32[256, 32]"
  t258 = torchex.reshape(t58, (32, 64))  # t258: "cpu f32[32, 64]"
    # t258 = prims.reshape(t58, (32, 64))  # t258: "cpu f32[32, 64]"
  del t58
  t259 = torchex.matmul(t257, t258)  # t259: "cpu f32[256, 64]"
    # t259 = prims.matmul(t257, t258)  # t259: "cpu f32[256, 64]"
  del t257, t258
  t260 = torchex.sum(t256, (0,))  # t260: "cpu f32[256]"
    # t260 = prims.sum(t256, (0,))  # t260: "cpu f32[256]"
  del t256
  (t308, t248) = fuser_8(t44, t_ln_2_weight, t255, t303)
    # (t222, t223) = prims.var_mean(t44, (2,), correction=0)
    # t224 = prims.broadcast_in_dim(t222, [2, 16, 1], (0, 1))  # t224: "cpu f32[2, 16, 1]"
    # t225 = prims.broadcast_in_dim(t223, [2, 16, 1], (0, 1))  # t225: "cpu f32[2, 16, 1]"
    # t226 = prims.add(t224, 1e-05)  # t226: "cpu f32[2, 16, 1]"
    # t227 = prims.rsqrt(t226)  # t227: "cpu f32[2, 16, 1]"
    # t228 = prims.broadcast_in_dim(t225, [2, 16, 64], (0, 1, 2))  # t228: "cpu f32[2, 16, 64]"
    # t229 = prims.sub(t44, t228)  # t229: "cpu f32[2, 16, 64]"
    # t230 = prims.broadcast_in_dim(t227, [2, 16, 64], (0, 1, 2))  # t230: "cpu f32[2, 16, 64]"
    # t231 = prims.mul(t229, t230)  # t231: "cpu f32[2, 16, 64]"
    # t232 = prims.broadcast_in_dim(t_ln_2_weight, [2, 16, 64], (2,))  # t232: "cpu f32[2, 16, 64]"
    # t233 = prims.mul(t255, t232)  # t233: "cpu f32[2, 16, 64]"
    # t234 = prims.sum(t233, (2,))  # t234: "cpu f32[2, 16]"
    # t235 = prims.div(t234, 64.0)  # t235: "cpu f32[2, 16]"
    # t236 = prims.broadcast_in_dim(t235, [2, 16, 1], (0, 1))  # t236: "cpu f32[2, 16, 1]"
    # t237 = prims.mul(t233, t231)  # t237: "cpu f32[2, 16, 64]"
    # t238 = prims.sum(t237, (2,))  # t238: "cpu f32[2, 16]"
    # t239 = prims.div(t238, 64.0)  # t239: "cpu f32[2, 16]"
    # t240 = prims.broadcast_in_dim(t239, [2, 16, 1], (0, 1))  # t240: "cpu f32[2, 16, 1]"
    # t241 = prims.broadcast_in_dim(t236, [2, 16, 64], (0, 1, 2))  # t241: "cpu f32[2, 16, 64]"
    # t242 = prims.sub(t233, t241)  # t242: "cpu f32[2, 16, 64]"
    # t243 = prims.broadcast_in_dim(t240, [2, 16, 64], (0, 1, 2))  # t243: "cpu f32[2, 16, 64]"
    # t244 = prims.mul(t231, t243)  # t244: "cpu f32[2, 16, 64]"
    # t245 = prims.sub(t242, t244)  # t245: "cpu f32[2, 16, 64]"
    # t247 = prims.mul(t230, t245)  # t247: "cpu f32[2, 16, 64]"
    # t308 = prims.add(t303, t247)  # t308: "cpu f32[2, 16, 64]"
    # t248 = prims.mul(t255, t231)  # t248: "cpu f32[2, 16, 64]"
  del t44, t_ln_2_weight, t303
  t249 = torch.sum(t248, (0, 1), False)  # t249: "cpu f32[64]"
    # t249 = ltorch.sum(t248, (0, 1), False, dtype=None)  # t249: "cpu f32[64]"
      # t249 = prims.sum(t248, (0, 1))  # t249: "cpu f32[64]"
  del t248
  t250 = torch.sum(t255, (0, 1), False)  # t250: "cpu f32[64]"
    # t250 = ltorch.sum(t255, (0, 1), False, dtype=None)  # t250: "cpu f32[64]"
      # t250 = prims.sum(t255, (0, 1))  # t250: "cpu f32[64]"
  del t255
  t199 = torch.matmul(t308, t_attn_c_proj_weight)  # t199: "cpu f32[2, 16, 64]"
    # t199 = ltorch.matmul(t308, t_attn_c_proj_weight)  # t199: "cpu f32[2, 16, 64]"
      # t197 = ltorch.reshape(t308, (32, 64))  # t197: "cpu f32[32, 64]"
        # t197 = prims.reshape(t308, (32, 64))  # t197: "cpu f32[32, 64]"
      # t198 = prims.matmul(t197, t_attn_c_proj_weight)  # t198: "cpu f32[32, 64]"
      # t199 = ltorch.reshape(t198, (2, 16, 64))  # t199: "cpu f32[2, 16, 64]"
        # t199 = prims.reshape(t198, (2, 16, 64))  # t199: "cpu f32[2, 16, 64]"
  del t_attn_c_proj_weight
  t200 = torchex.reshape(t308, (32, 64))  # t200: "cpu f32[32, 64]"
    # t200 = prims.reshape(t308, (32, 64))  # t200: "cpu f32[32, 64]"
  del t308
  t201 = torchex.transpose(t200, (1, 0))  # t201: "cpu f32[64, 32]"
    # t201 = prims.transpose(t200, (1, 0))  # t201: "cpu f32[64, 32]"
  t202 = torchex.reshape(t42, (32, 64))  # t202: "cpu f32[32, 64]"
    # t202 = prims.reshape(t42, (32, 64))  # t202: "cpu f32[32, 64]"
  del t42
  t203 = torchex.matmul(t201, t202)  # t203: "cpu f32[64, 64]"
    # t203 = prims.matmul(t201, t202)  # t203: "cpu f32[64, 64]"
  del t201, t202
  t204 = torchex.sum(t200, (0,))  # t204: "cpu f32[64]"
    # t204 = prims.sum(t200, (0,))  # t204: "cpu f32[64]"
  del t200
  t194 = torchex.reshape(t199, (2, 16, 4, 16))  # t194: "cpu f32[2, 16, 4, 16]"
    # t194 = prims.reshape(t199, (2, 16, 4, 16))  # t194: "cpu f32[2, 16, 4, 16]"
  del t199
  t189 = torchex.transpose(t194, (0, 2, 1, 3))  # t189: "cpu f32[2, 4, 16, 16]"
    # t189 = prims.transpose(t194, (0, 2, 1, 3))  # t189: "cpu f32[2, 4, 16, 16]"
  del t194
  t183 = torchex.transpose(t23, (0, 1, 3, 2))  # t183: "cpu f32[2, 4, 16, 16]"
    # t183 = prims.transpose(t23, (0, 1, 3, 2))  # t183: "cpu f32[2, 4, 16, 16]"
  del t23
  t184 = torch.matmul(t189, t183)  # t184: "cpu f32[2, 4, 16, 16]"
    # t184 = ltorch.matmul(t189, t183)  # t184: "cpu f32[2, 4, 16, 16]"
      # t184 = prims.matmul(t189, t183)  # t184: "cpu f32[2, 4, 16, 16]"
  del t183
  t185 = torchex.transpose(t38, (0, 1, 3, 2))  # t185: "cpu f32[2, 4, 16, 16]"
    # t185 = prims.transpose(t38, (0, 1, 3, 2))  # t185: "cpu f32[2, 4, 16, 16]"
  t186 = torch.matmul(t185, t189)  # t186: "cpu f32[2, 4, 16, 16]"
    # t186 = ltorch.matmul(t185, t189)  # t186: "cpu f32[2, 4, 16, 16]"
      # t186 = prims.matmul(t185, t189)  # t186: "cpu f32[2, 4, 16, 16]"
  del t185, t189
  (t27,) = fuser_9(t_attn_bias)
    # t27 = prims.eq(t_attn_bias, 0.0)  # t27: "cpu b8[1, 1, 16, 16]"
  del t_attn_bias
  (t161,) = fuser_10(t184, t38, t27)
    # t175 = prims.mul(t184, t38)  # t175: "cpu f32[2, 4, 16, 16]"
    # t176 = prims.sum(t175, (3,))  # t176: "cpu f32[2, 4, 16]"
    # t177 = prims.broadcast_in_dim(t176, [2, 4, 16, 1], (0, 1, 2))  # t177: "cpu f32[2, 4, 16, 1]"
    # t178 = prims.broadcast_in_dim(t177, [2, 4, 16, 16], (0, 1, 2, 3))  # t178: "cpu f32[2, 4, 16, 16]"
    # t179 = prims.sub(t184, t178)  # t179: "cpu f32[2, 4, 16, 16]"
    # t180 = prims.mul(t38, t179)  # t180: "cpu f32[2, 4, 16, 16]"
    # t28 = prims.broadcast_in_dim(t27, [2, 4, 16, 16], (0, 1, 2, 3))  # t28: "cpu b8[2, 4, 16, 16]"
    # t164 = prims.where(t28, 0.0, t180)  # t164: "cpu f32[2, 4, 16, 16]"
    # t161 = prims.mul(t164, 0.25)  # t161: "cpu f32[2, 4, 16, 16]"
  del t184, t38, t27
  t155 = torchex.transpose(t24, (0, 1, 3, 2))  # t155: "cpu f32[2, 4, 16, 16]"
    # t155 = prims.transpose(t24, (0, 1, 3, 2))  # t155: "cpu f32[2, 4, 16, 16]"
  del t24
  t156 = torch.matmul(t161, t155)  # t156: "cpu f32[2, 4, 16, 16]"
    # t156 = ltorch.matmul(t161, t155)  # t156: "cpu f32[2, 4, 16, 16]"
      # t156 = prims.matmul(t161, t155)  # t156: "cpu f32[2, 4, 16, 16]"
  del t155
  t157 = torchex.transpose(t21, (0, 1, 3, 2))  # t157: "cpu f32[2, 4, 16, 16]"
    # t157 = prims.transpose(t21, (0, 1, 3, 2))  # t157: "cpu f32[2, 4, 16, 16]"
  del t21
  t158 = torch.matmul(t157, t161)  # t158: "cpu f32[2, 4, 16, 16]"
    # t158 = ltorch.matmul(t157, t161)  # t158: "cpu f32[2, 4, 16, 16]"
      # t158 = prims.matmul(t157, t161)  # t158: "cpu f32[2, 4, 16, 16]"
  del t157, t161
  t152 = torchex.transpose(t158, (0, 1, 3, 2))  # t152: "cpu f32[2, 4, 16, 16]"
    # t152 = prims.transpose(t158, (0, 1, 3, 2))  # t152: "cpu f32[2, 4, 16, 16]"
  del t158
  t149 = torchex.transpose(t186, (0, 2, 1, 3))  # t149: "cpu f32[2, 16, 4, 16]"
    # t149 = prims.transpose(t186, (0, 2, 1, 3))  # t149: "cpu f32[2, 16, 4, 16]"
  del t186
  t146 = torchex.reshape(t149, (2, 16, 64))  # t146: "cpu f32[2, 16, 64]"
    # t146 = prims.reshape(t149, (2, 16, 64))  # t146: "cpu f32[2, 16, 64]"
  del t149
  t143 = torchex.transpose(t156, (0, 2, 1, 3))  # t143: "cpu f32[2, 16, 4, 16]"
    # t143 = prims.transpose(t156, (0, 2, 1, 3))  # t143: "cpu f32[2, 16, 4, 16]"
  del t156
  t140 = torchex.reshape(t143, (2, 16, 64))  # t140: "cpu f32[2, 16, 64]"
    # t140 = prims.reshape(t143, (2, 16, 64))  # t140: "cpu f32[2, 16, 64]"
  del t143
  t137 = torchex.transpose(t152, (0, 2, 1, 3))  # t137: "cpu f32[2, 16, 4, 16]"
    # t137 = prims.transpose(t152, (0, 2, 1, 3))  # t137: "cpu f32[2, 16, 4, 16]"
  del t152
  t134 = torchex.reshape(t137, (2, 16, 64))  # t134: "cpu f32[2, 16, 64]"
    # t134 = prims.reshape(t137, (2, 16, 64))  # t134: "cpu f32[2, 16, 64]"
  del t137
  t131 = torch.cat([t140, t134, t146], 2)  # t131: "cpu f32[2, 16, 192]"
    # t131 = ltorch.cat([t140, t134, t146], 2)  # t131: "cpu f32[2, 16, 192]"
      # t131 = prims.cat([t140, t134, t146], 2)  # t131: "cpu f32[2, 16, 192]"
  del t140, t134, t146
  t119 = torch.matmul(t131, t_attn_c_attn_weight)  # t119: "cpu f32[2, 16, 64]"
    # t119 = ltorch.matmul(t131, t_attn_c_attn_weight)  # t119: "cpu f32[2, 16, 64]"
      # t117 = ltorch.reshape(t131, (32, 192))  # t117: "cpu f32[32, 192]"
        # t117 = prims.reshape(t131, (32, 192))  # t117: "cpu f32[32, 192]"
      # t118 = prims.matmul(t117, t_attn_c_attn_weight)  # t118: "cpu f32[32, 64]"
      # t119 = ltorch.reshape(t118, (2, 16, 64))  # t119: "cpu f32[2, 16, 64]"
        # t119 = prims.reshape(t118, (2, 16, 64))  # t119: "cpu f32[2, 16, 64]"
  del t_attn_c_attn_weight
  t120 = torchex.reshape(t131, (32, 192))  # t120: "cpu f32[32, 192]"
    # t120 = prims.reshape(t131, (32, 192))  # t120: "cpu f32[32, 192]"
  del t131
  t121 = torchex.transpose(t120, (1, 0))  # t121: "cpu f32[192, 32]"
    # t121 = prims.transpose(t120, (1, 0))  # t121: "cpu f32[192, 32]"
  t122 = torchex.reshape(t13, (32, 64))  # t122: "cpu f32[32, 64]"
    # t122 = prims.reshape(t13, (32, 64))  # t122: "cpu f32[32, 64]"
  del t13
  t123 = torchex.matmul(t121, t122)  # t123: "cpu f32[192, 64]"
    # t123 = prims.matmul(t121, t122)  # t123: "cpu f32[192, 64]"
  del t121, t122
  t124 = torchex.sum(t120, (0,))  # t124: "cpu f32[192]"
    # t124 = prims.sum(t120, (0,))  # t124: "cpu f32[192]"
  del t120
  (t112,) = fuser_11(x, t119)
    # (t86, t87) = prims.var_mean(x, (2,), correction=0)
    # t88 = prims.broadcast_in_dim(t86, [2, 16, 1], (0, 1))  # t88: "cpu f32[2, 16, 1]"
    # t89 = prims.broadcast_in_dim(t87, [2, 16, 1], (0, 1))  # t89: "cpu f32[2, 16, 1]"
    # t90 = prims.add(t88, 1e-05)  # t90: "cpu f32[2, 16, 1]"
    # t91 = prims.rsqrt(t90)  # t91: "cpu f32[2, 16, 1]"
    # t92 = prims.broadcast_in_dim(t89, [2, 16, 64], (0, 1, 2))  # t92: "cpu f32[2, 16, 64]"
    # t93 = prims.sub(x, t92)  # t93: "cpu f32[2, 16, 64]"
    # t94 = prims.broadcast_in_dim(t91, [2, 16, 64], (0, 1, 2))  # t94: "cpu f32[2, 16, 64]"
    # t95 = prims.mul(t93, t94)  # t95: "cpu f32[2, 16, 64]"
    # t112 = prims.mul(t119, t95)  # t112: "cpu f32[2, 16, 64]"
  del x
  t113 = torch.sum(t112, (0, 1), False)  # t113: "cpu f32[64]"
    # t113 = ltorch.sum(t112, (0, 1), False, dtype=None)  # t113: "cpu f32[64]"
      # t113 = prims.sum(t112, (0, 1))  # t113: "cpu f32[64]"
  del t112
  t114 = torch.sum(t119, (0, 1), False)  # t114: "cpu f32[64]"
    # t114 = ltorch.sum(t119, (0, 1), False, dtype=None)  # t114: "cpu f32[64]"
      # t114 = prims.sum(t119, (0, 1))  # t114: "cpu f32[64]"
  del t119
  return (None, t113, t114, t123, t124, t203, t204, t249, t250, t259, t260, t299, t300, None)
