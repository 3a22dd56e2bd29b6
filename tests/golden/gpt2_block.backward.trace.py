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
  # t305: "cpu f32[2, 16, 64]"
  t305, = cotangents
  t297 = torch.matmul(t305, t_mlp_c_proj_weight)  # t297: "cpu f32[2, 16, 256]"
    # t297 = ltorch.matmul(t305, t_mlp_c_proj_weight)  # t297: "cpu f32[2, 16, 256]"
      # t295 = ltorch.reshape(t305, (32, 64))  # t295: "cpu f32[32, 64]"
        # t295 = prims.reshape(t305, (32, 64))  # t295: "cpu f32[32, 64]"
      # t296 = prims.matmul(t295, t_mlp_c_proj_weight)  # t296: "cpu f32[32, 256]"
      # t297 = ltorch.reshape(t296, (2, 16, 256))  # t297: "cpu f32[2, 16, 256]"
        # t297 = prims.reshape(t296, (2, 16, 256))  # t297: "cpu f32[2, 16, 256]"
  del t_mlp_c_proj_weight
  t298 = torchex.reshape(t305, (32, 64))  # t298: "cpu f32[32, 64]"
    # t298 = prims.reshape(t305, (32, 64))  # t298: "cpu f32[32, 64]"
  t299 = torchex.transpose(t298, (1, 0))  # t299: "cpu f32[64, 32]"
    # t299 = prims.transpose(t298, (1, 0))  # t299: "cpu f32[64, 32]"
  (t60, t65, t66, t67, t68) = fuser_6(t59)
    # t60 = prims.mul(t59, t59)  # t60: "cpu f32[2, 16, 256]"
    # t61 = prims.mul(t60, t59)  # t61: "cpu f32[2, 16, 256]"
    # t62 = prims.mul(0.044715, t61)  # t62: "cpu f32[2, 16, 256]"
    # t63 = prims.add(t59, t62)  # t63: "cpu f32[2, 16, 256]"
    # t64 = prims.mul(0.7978845608028654, t63)  # t64: "cpu f32[2, 16, 256]"
    # t65 = prims.mul(0.5, t59)  # t65: "cpu f32[2, 16, 256]"
    # t66 = prims.tanh(t64)  # t66: "cpu f32[2, 16, 256]"
    # t67 = prims.add(1.0, t66)  # t67: "cpu f32[2, 16, 256]"
    # t68 = prims.mul(t65, t67)  # t68: "cpu f32[2, 16, 256]"
  t300 = torchex.reshape(t68, (32, 256))  # t300: "cpu f32[32, 256]"
    # t300 = prims.reshape(t68, (32, 256))  # t300: "cpu f32[32, 256]"
  del t68
  t301 = torchex.matmul(t299, t300)  # t301: "cpu f32[64, 256]"
    # t301 = prims.matmul(t299, t300)  # t301: "cpu f32[64, 256]"
  del t299, t300
  t302 = torchex.sum(t298, (0,))  # t302: "cpu f32[64]"
    # t302 = prims.sum(t298, (0,))  # t302: "cpu f32[64]"
  del t298
  (t309,) = fuser_7(t297, t67, t65, t66, t59, t60)
    # t291 = prims.mul(t297, t67)  # t291: "cpu f32[2, 16, 256]"
    # t292 = prims.mul(t297, t65)  # t292: "cpu f32[2, 16, 256]"
    # t284 = prims.mul(t66, t66)  # t284: "cpu f32[2, 16, 256]"
    # t285 = prims.sub(1.0, t284)  # t285: "cpu f32[2, 16, 256]"
    # t286 = prims.mul(t292, t285)  # t286: "cpu f32[2, 16, 256]"
    # t281 = prims.mul(t291, 0.5)  # t281: "cpu f32[2, 16, 256]"
    # t278 = prims.mul(t286, 0.7978845608028654)  # t278: "cpu f32[2, 16, 256]"
    # t306 = prims.add(t281, t278)  # t306: "cpu f32[2, 16, 256]"
    # t273 = prims.mul(t278, 0.044715)  # t273: "cpu f32[2, 16, 256]"
    # t269 = prims.mul(t273, t59)  # t269: "cpu f32[2, 16, 256]"
    # t270 = prims.mul(t273, t60)  # t270: "cpu f32[2, 16, 256]"
    # t307 = prims.add(t306, t270)  # t307: "cpu f32[2, 16, 256]"
    # t265 = prims.mul(t269, t59)  # t265: "cpu f32[2, 16, 256]"
    # t308 = prims.add(t307, t265)  # t308: "cpu f32[2, 16, 256]"
    # t309 = prims.add(t308, t265)  # t309: "cpu f32[2, 16, 256]"
  del t297, t67, t65, t66, t59, t60
  t257 = torch.matmul(t309, t_mlp_c_fc_weight)  # t257: "cpu f32[2, 16, 64]"
    # t257 = ltorch.matmul(t309, t_mlp_c_fc_weight)  # t257: "cpu f32[2, 16, 64]"
      # t255 = ltorch.reshape(t309, (32, 256))  # t255: "cpu f32[32, 256]"
        # t255 = prims.reshape(t309, (32, 256))  # t255: "cpu f32[32, 256]"
      # t256 = prims.matmul(t255, t_mlp_c_fc_weight)  # t256: "cpu f32[32, 64]"
      # t257 = ltorch.reshape(t256, (2, 16, 64))  # t257: "cpu f32[2, 16, 64]"
        # t257 = prims.reshape(t256, (2, 16, 64))  # t257: "cpu f32[2, 16, 64]"
  del t_mlp_c_fc_weight
  t258 = torchex.reshape(t309, (32, 256))  # t258: "cpu f32[32, 256]"
    # t258 = prims.reshape(t309, (32, 256))  # t258: "cpu f32[32, 256]"
  del t309
  t259 = torchex.transpose(t258, (1, 0))  # t259: "cpu f32[256, 32]"
    # t259 = prims.transpose(t258, (1, 0))  # t259: "cpu f32[256, 32]"
  t260 = torchex.reshape(t58, (32, 64))  # t260: "cpu f32[32, 64]"
    # t260 = prims.reshape(t58, (32, 64))  # t260: "cpu f32[32, 64]"
  del t58
  t261 = torchex.matmul(t259, t260)  # t261: "cpu f32[256, 64]"
    # t261 = prims.matmul(t259, t260)  # t261: "cpu f32[256, 64]"
  del t259, t260
  t262 = torchex.sum(t258, (0,))  # t262: "cpu f32[256]"
    # t262 = prims.sum(t258, (0,))  # t262: "cpu f32[256]"
  del t258
  (t310, t250) = fuser_8(t44, t_ln_2_weight, t257, t305)
    # (t224, t225) = prims.var_mean(t44, (2,), correction=0)
    # t226 = prims.broadcast_in_dim(t224, [2, 16, 1], (0, 1))  # t226: "cpu f32[2, 16, 1]"
    # t227 = prims.broadcast_in_dim(t225, [2, 16, 1], (0, 1))  # t227: "cpu f32[2, 16, 1]"
    # t228 = prims.add(t226, 1e-05)  # t228: "cpu f32[2, 16, 1]"
    # t229 = prims.rsqrt(t228)  # t229: "cpu f32[2, 16, 1]"
    # t230 = prims.broadcast_in_dim(t227, [2, 16, 64], (0, 1, 2))  # t230: "cpu f32[2, 16, 64]"
    # t231 = prims.sub(t44, t230)  # t231: "cpu f32[2, 16, 64]"
    # t232 = prims.broadcast_in_dim(t229, [2, 16, 64], (0, 1, 2))  # t232: "cpu f32[2, 16, 64]"
    # t233 = prims.mul(t231, t232)  # t233: "cpu f32[2, 16, 64]"
    # t234 = prims.broadcast_in_dim(t_ln_2_weight, [2, 16, 64], (2,))  # t234: "cpu f32[2, 16, 64]"
    # t235 = prims.mul(t257, t234)  # t235: "cpu f32[2, 16, 64]"
    # t236 = prims.sum(t235, (2,))  # t236: "cpu f32[2, 16]"
    # t237 = prims.div(t236, 64.0)  # t237: "cpu f32[2, 16]"
    # t238 = prims.broadcast_in_dim(t237, [2, 16, 1], (0, 1))  # t238: "cpu f32[2, 16, 1]"
    # t239 = prims.mul(t235, t233)  # t239: "cpu f32[2, 16, 64]"
    # t240 = prims.sum(t239, (2,))  # t240: "cpu f32[2, 16]"
    # t241 = prims.div(t240, 64.0)  # t241: "cpu f32[2, 16]"
    # t242 = prims.broadcast_in_dim(t241, [2, 16, 1], (0, 1))  # t242: "cpu f32[2, 16, 1]"
    # t243 = prims.broadcast_in_dim(t238, [2, 16, 64], (0, 1, 2))  # t243: "cpu f32[2, 16, 64]"
    # t244 = prims.sub(t235, t243)  # t244: "cpu f32[2, 16, 64]"
    # t245 = prims.broadcast_in_dim(t242, [2, 16, 64], (0, 1, 2))  # t245: "cpu f32[2, 16, 64]"
    # t246 = prims.mul(t233, t245)  # t246: "cpu f32[2, 16, 64]"
    # t247 = prims.sub(t244, t246)  # t247: "cpu f32[2, 16, 64]"
    # t249 = prims.mul(t232, t247)  # t249: "cpu f32[2, 16, 64]"
    # t310 = prims.add(t305, t249)  # t310: "cpu f32[2, 16, 64]"
    # t250 = prims.mul(t257, t233)  # t250: "cpu f32[2, 16, 64]"
  del t44, t_ln_2_weight, t305
  t251 = torch.sum(t250, (0, 1), False)  # t251: "cpu f32[64]"
    # t251 = ltorch.sum(t250, (0, 1), False, dtype=None)  # t251: "cpu f32[64]"
      # t251 = prims.sum(t250, (0, 1))  # t251: "cpu f32[64]"
  del t250
  t252 = torch.sum(t257, (0, 1), False)  # t252: "cpu f32[64]"
    # t252 = ltorch.sum(t257, (0, 1), False, dtype=None)  # t252: "cpu f32[64]"
      # t252 = prims.sum(t257, (0, 1))  # t252: "cpu f32[64]"
  del t257
  t201 = torch.matmul(t310, t_attn_c_proj_weight)  # t201: "cpu f32[2, 16, 64]"
    # t201 = ltorch.matmul(t310, t_attn_c_proj_weight)  # t201: "cpu f32[2, 16, 64]"
      # t199 = ltorch.reshape(t310, (32, 64))  # t199: "cpu f32[32, 64]"
        # t199 = prims.reshape(t310, (32, 64))  # t199: "cpu f32[32, 64]"
      # t200 = prims.matmul(t199, t_attn_c_proj_weight)  # t200: "cpu f32[32, 64]"
      # t201 = ltorch.reshape(t200, (2, 16, 64))  # t201: "cpu f32[2, 16, 64]"
        # t201 = prims.reshape(t200, (2, 16, 64))  # t201: "cpu f32[2, 16, 64]"
  del t_attn_c_proj_weight
  t202 = torchex.reshape(t310, (32, 64))  # t202: "cpu f32[32, 64]"
    # t202 = prims.reshape(t310, (32, 64))  # t202: "cpu f32[32, 64]"
  del t310
  t203 = torchex.transpose(t202, (1, 0))  # t203: "cpu f32[64, 32]"
    # t203 = prims.transpose(t202, (1, 0))  # t203: "cpu f32[64, 32]"
  t204 = torchex.reshape(t42, (32, 64))  # t204: "cpu f32[32, 64]"
    # t204 = prims.reshape(t42, (32, 64))  # t204: "cpu f32[32, 64]"
  del t42
  t205 = torchex.matmul(t203, t204)  # t205: "cpu f32[64, 64]"
    # t205 = prims.matmul(t203, t204)  # t205: "cpu f32[64, 64]"
  del t203, t204
  t206 = torchex.sum(t202, (0,))  # t206: "cpu f32[64]"
    # t206 = prims.sum(t202, (0,))  # t206: "cpu f32[64]"
  del t202
  t196 = torchex.reshape(t201, (2, 16, 4, 16))  # t196: "cpu f32[2, 16, 4, 16]"
    # t196 = prims.reshape(t201, (2, 16, 4, 16))  # t196: "cpu f32[2, 16, 4, 16]"
  del t201
  t191 = torchex.transpose(t196, (0, 2, 1, 3))  # t191: "cpu f32[2, 4, 16, 16]"
    # t191 = prims.transpose(t196, (0, 2, 1, 3))  # t191: "cpu f32[2, 4, 16, 16]"
  del t196
  t185 = torchex.transpose(t23, (0, 1, 3, 2))  # t185: "cpu f32[2, 4, 16, 16]"
    # t185 = prims.transpose(t23, (0, 1, 3, 2))  # t185: "cpu f32[2, 4, 16, 16]"
  del t23
  t186 = torch.matmul(t191, t185)  # t186: "cpu f32[2, 4, 16, 16]"
    # t186 = ltorch.matmul(t191, t185)  # t186: "cpu f32[2, 4, 16, 16]"
      # t186 = prims.matmul(t191, t185)  # t186: "cpu f32[2, 4, 16, 16]"
  del t185
  t187 = torchex.transpose(t38, (0, 1, 3, 2))  # t187: "cpu f32[2, 4, 16, 16]"
    # t187 = prims.transpose(t38, (0, 1, 3, 2))  # t187: "cpu f32[2, 4, 16, 16]"
  t188 = torch.matmul(t187, t191)  # t188: "cpu f32[2, 4, 16, 16]"
    # t188 = ltorch.matmul(t187, t191)  # t188: "cpu f32[2, 4, 16, 16]"
      # t188 = prims.matmul(t187, t191)  # t188: "cpu f32[2, 4, 16, 16]"
  del t187, t191
  (t27,) = fuser_9(t_attn_bias)
    # t27 = prims.eq(t_attn_bias, 0.0)  # t27: "cpu b8[1, 1, 16, 16]"
  del t_attn_bias
  (t163,) = fuser_10(t186, t38, t27)
    # t177 = prims.mul(t186, t38)  # t177: "cpu f32[2, 4, 16, 16]"
    # t178 = prims.sum(t177, (3,))  # t178: "cpu f32[2, 4, 16]"
    # t179 = prims.broadcast_in_dim(t178, [2, 4, 16, 1], (0, 1, 2))  # t179: "cpu f32[2, 4, 16, 1]"
    # t180 = prims.broadcast_in_dim(t179, [2, 4, 16, 16], (0, 1, 2, 3))  # t180: "cpu f32[2, 4, 16, 16]"
    # t181 = prims.sub(t186, t180)  # t181: "cpu f32[2, 4, 16, 16]"
    # t182 = prims.mul(t38, t181)  # t182: "cpu f32[2, 4, 16, 16]"
    # t28 = prims.broadcast_in_dim(t27, [2, 4, 16, 16], (0, 1, 2, 3))  # t28: "cpu b8[2, 4, 16, 16]"
    # t166 = prims.where(t28, 0.0, t182)  # t166: "cpu f32[2, 4, 16, 16]"
    # t163 = prims.mul(t166, 0.25)  # t163: "cpu f32[2, 4, 16, 16]"
  del t186, t38, t27
  t157 = torchex.transpose(t24, (0, 1, 3, 2))  # t157: "cpu f32[2, 4, 16, 16]"
    # t157 = prims.transpose(t24, (0, 1, 3, 2))  # t157: "cpu f32[2, 4, 16, 16]"
  del t24
  t158 = torch.matmul(t163, t157)  # t158: "cpu f32[2, 4, 16, 16]"
    # t158 = ltorch.matmul(t163, t157)  # t158: "cpu f32[2, 4, 16, 16]"
      # t158 = prims.matmul(t163, t157)  # t158: "cpu f32[2, 4, 16, 16]"
  del t157
  t159 = torchex.transpose(t21, (0, 1, 3, 2))  # t159: "cpu f32[2, 4, 16, 16]"
    # t159 = prims.transpose(t21, (0, 1, 3, 2))  # t159: "cpu f32[2, 4, 16, 16]"
  del t21
  t160 = torch.matmul(t159, t163)  # t160: "cpu f32[2, 4, 16, 16]"
    # t160 = ltorch.matmul(t159, t163)  # t160: "cpu f32[2, 4, 16, 16]"
      # t160 = prims.matmul(t159, t163)  # t160: "cpu f32[2, 4, 16, 16]"
  del t159, t163
  t154 = torchex.transpose(t160, (0, 1, 3, 2))  # t154: "cpu f32[2, 4, 16, 16]"
    # t154 = prims.transpose(t160, (0, 1, 3, 2))  # t154: "cpu f32[2, 4, 16, 16]"
  del t160
  t151 = torchex.transpose(t188, (0, 2, 1, 3))  # t151: "cpu f32[2, 16, 4, 16]"
    # t151 = prims.transpose(t188, (0, 2, 1, 3))  # t151: "cpu f32[2, 16, 4, 16]"
  del t188
  t148 = torchex.reshape(t151, (2, 16, 64))  # t148: "cpu f32[2, 16, 64]"
    # t148 = prims.reshape(t151, (2, 16, 64))  # t148: "cpu f32[2, 16, 64]"
  del t151
  t145 = torchex.transpose(t158, (0, 2, 1, 3))  # t145: "cpu f32[2, 16, 4, 16]"
    # t145 = prims.transpose(t158, (0, 2, 1, 3))  # t145: "cpu f32[2, 16, 4, 16]"
  del t158
  t142 = torchex.reshape(t145, (2, 16, 64))  # t142: "cpu f32[2, 16, 64]"
    # t142 = prims.reshape(t145, (2, 16, 64))  # t142: "cpu f32[2, 16, 64]"
  del t145
  t139 = torchex.transpose(t154, (0, 2, 1, 3))  # t139: "cpu f32[2, 16, 4, 16]"
    # t139 = prims.transpose(t154, (0, 2, 1, 3))  # t139: "cpu f32[2, 16, 4, 16]"
  del t154
  t136 = torchex.reshape(t139, (2, 16, 64))  # t136: "cpu f32[2, 16, 64]"
    # t136 = prims.reshape(t139, (2, 16, 64))  # t136: "cpu f32[2, 16, 64]"
  del t139
  t133 = torchex.pad(t148, 0.0, [(0, 0, 0), (0, 0, 0), (128, 0, 0)])  # t133: "cpu f32[2, 16, 192]"
    # t133 = prims.pad(t148, 0.0, [(0, 0, 0), (0, 0, 0), (128, 0, 0)])  # t133: "cpu f32[2, 16, 192]"
  del t148
  t130 = torchex.pad(t136, 0.0, [(0, 0, 0), (0, 0, 0), (64, 64, 0)])  # t130: "cpu f32[2, 16, 192]"
    # t130 = prims.pad(t136, 0.0, [(0, 0, 0), (0, 0, 0), (64, 64, 0)])  # t130: "cpu f32[2, 16, 192]"
  del t136
  (t311,) = fuser_11(t133, t130)
    # t311 = prims.add(t133, t130)  # t311: "cpu f32[2, 16, 192]"
  del t133, t130
  t127 = torchex.pad(t142, 0.0, [(0, 0, 0), (0, 0, 0), (0, 128, 0)])  # t127: "cpu f32[2, 16, 192]"
    # t127 = prims.pad(t142, 0.0, [(0, 0, 0), (0, 0, 0), (0, 128, 0)])  # t127: "cpu f32[2, 16, 192]"
  del t142
  (t312,) = fuser_12(t311, t127)
    # t312 = prims.add(t311, t127)  # t312: "cpu f32[2, 16, 192]"
  del t311, t127
  t119 = torch.matmul(t312, t_attn_c_attn_weight)  # t119: "cpu f32[2, 16, 64]"
    # t119 = ltorch.matmul(t312, t_attn_c_attn_weight)  # t119: "cpu f32[2, 16, 64]"
      # t117 = ltorch.reshape(t312, (32, 192))  # t117: "cpu f32[32, 192]"
        # t117 = prims.reshape(t312, (32, 192))  # t117: "cpu f32[32, 192]"
      # t118 = prims.matmul(t117, t_attn_c_attn_weight)  # t118: "cpu f32[32, 64]"
      # t119 = ltorch.reshape(t118, (2, 16, 64))  # t119: "cpu f32[2, 16, 64]"
        # t119 = prims.reshape(t118, (2, 16, 64))  # t119: "cpu f32[2, 16, 64]"
  del t_attn_c_attn_weight
  t120 = torchex.reshape(t312, (32, 192))  # t120: "cpu f32[32, 192]"
    # t120 = prims.reshape(t312, (32, 192))  # t120: "cpu f32[32, 192]"
  del t312
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
  (t112,) = fuser_13(x, t119)
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
  return (None, t113, t114, t123, t124, t205, t206, t251, t252, t261, t262, t301, t302, None)
