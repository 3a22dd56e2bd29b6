# Constructed by Delete Last Used
import thunder.executors.torchex as torchex
import torch
from torch import Tensor
from thunder.executors.torchex import no_autocast

@torch.no_grad()
@no_autocast
def backward_fn(saved_for_backward, cotangents):
  # saved_for_backward: "Collection"
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
  # t5: "cpu f32[2, 16, 1]"
  # t29: "cpu f32[2, 8, 16, 8]"
  # t39: "cpu f32[2, 2, 1, 16, 8]"
  # t42: "cpu f32[2, 2, 1, 16, 8]"
  # t60: "cpu f32[2, 8, 16, 16]"
  # t63: "cpu f32[2, 16, 64]"
  # t65: "cpu f32[2, 16, 64]"
  # t71: "cpu f32[2, 16, 1]"
  # t76: "cpu f32[2, 16, 172]"
  # t82: "cpu f32[2, 16, 172]"
  x, t_attention_norm_weight, t_attention_wq_weight, t_attention_wk_weight, t_attention_wv_weight, t_attention_wo_weight, t_ffn_norm_weight, t_feed_forward_w1_weight, t_feed_forward_w2_weight, t_feed_forward_w3_weight, t_attention_cos, t_attention_sin, t_attention_mask, t5, t29, t39, t42, t60, t63, t65, t71, t76, t82, = saved_for_backward
  # cotangents: "Collection"
  # t335: "cpu f32[2, 16, 64]"
  t335, = cotangents
  t328 = torch.matmul(t335, t_feed_forward_w2_weight)  # t328: "cpu f32[2, 16, 172]"
    # t328 = ltorch.matmul(t335, t_feed_forward_w2_weight)  # t328: "cpu f32[2, 16, 172]"
      # t326 = ltorch.reshape(t335, (32, 64))  # t326: "cpu f32[32, 64]"
        # t326 = prims.reshape(t335, (32, 64))  # t326: "cpu f32[32, 64]"
      # t327 = prims.matmul(t326, t_feed_forward_w2_weight)  # t327: "cpu f32[32, 172]"
      # t328 = ltorch.reshape(t327, (2, 16, 172))  # t328: "cpu f32[2, 16, 172]"
        # t328 = prims.reshape(t327, (2, 16, 172))  # t328: "cpu f32[2, 16, 172]"
  del t_feed_forward_w2_weight
  t329 = torchex.reshape(t335, (32, 64))  # t329: "cpu f32[32, 64]"
    # t329 = prims.reshape(t335, (32, 64))  # t329: "cpu f32[32, 64]"
  t330 = torchex.transpose(t329, (1, 0))  # t330: "cpu f32[64, 32]"
    # t330 = prims.transpose(t329, (1, 0))  # t330: "cpu f32[64, 32]"
  del t329
  (t81, t83) = fuser_14(t76, t82)
    # t77 = prims.neg(t76)  # t77: "cpu f32[2, 16, 172]"
    # t78 = prims.exp(t77)  # t78: "cpu f32[2, 16, 172]"
    # t79 = prims.add(1.0, t78)  # t79: "cpu f32[2, 16, 172]"
    # t80 = prims.div(1.0, t79)  # t80: "cpu f32[2, 16, 172]"
    # t81 = prims.mul(t76, t80)  # t81: "cpu f32[2, 16, 172]"
    # t83 = prims.mul(t81, t82)  # t83: "cpu f32[2, 16, 172]"
  t331 = torchex.reshape(t83, (32, 172))  # t331: "cpu f32[32, 172]"
    # t331 = prims.reshape(t83, (32, 172))  # t331: "cpu f32[32, 172]"
  del t83
  t332 = torchex.matmul(t330, t331)  # t332: "cpu f32[64, 172]"
    # t332 = prims.matmul(t330, t331)  # t332: "cpu f32[64, 172]"
  del t330, t331
  (t322, t323) = fuser_15(t328, t82, t81)
    # t322 = prims.mul(t328, t82)  # t322: "cpu f32[2, 16, 172]"
    # t323 = prims.mul(t328, t81)  # t323: "cpu f32[2, 16, 172]"
  del t328, t82, t81
  t315 = torch.matmul(t323, t_feed_forward_w3_weight)  # t315: "cpu f32[2, 16, 64]"
    # t315 = ltorch.matmul(t323, t_feed_forward_w3_weight)  # t315: "cpu f32[2, 16, 64]"
      # t313 = ltorch.reshape(t323, (32, 172))  # t313: "cpu f32[32, 172]"
        # t313 = prims.reshape(t323, (32, 172))  # t313: "cpu f32[32, 172]"
      # t314 = prims.matmul(t313, t_feed_forward_w3_weight)  # t314: "cpu f32[32, 64]"
      # t315 = ltorch.reshape(t314, (2, 16, 64))  # t315: "cpu f32[2, 16, 64]"
        # t315 = prims.reshape(t314, (2, 16, 64))  # t315: "cpu f32[2, 16, 64]"
  del t_feed_forward_w3_weight
  t316 = torchex.reshape(t323, (32, 172))  # t316: "cpu f32[32, 172]"
    # t316 = prims.reshape(t323, (32, 172))  # t316: "cpu f32[32, 172]"
  del t323
  t317 = torchex.transpose(t316, (1, 0))  # t317: "cpu f32[172, 32]"
    # t317 = prims.transpose(t316, (1, 0))  # t317: "cpu f32[172, 32]"
  del t316
  (t73, t75) = fuser_16(t71, t65, t_ffn_norm_weight)
    # t72 = prims.broadcast_in_dim(t71, [2, 16, 64], (0, 1, 2))  # t72: "cpu f32[2, 16, 64]"
    # t73 = prims.mul(t65, t72)  # t73: "cpu f32[2, 16, 64]"
    # t74 = prims.broadcast_in_dim(t_ffn_norm_weight, [2, 16, 64], (2,))  # t74: "cpu f32[2, 16, 64]"
    # t75 = prims.mul(t73, t74)  # t75: "cpu f32[2, 16, 64]"
  t318 = torchex.reshape(t75, (32, 64))  # t318: "cpu f32[32, 64]"
    # t318 = prims.reshape(t75, (32, 64))  # t318: "cpu f32[32, 64]"
  del t75
  t319 = torchex.matmul(t317, t318)  # t319: "cpu f32[172, 64]"
    # t319 = prims.matmul(t317, t318)  # t319: "cpu f32[172, 64]"
  del t317
  (t336,) = fuser_17(t76, t322)
    # t77 = prims.neg(t76)  # t77: "cpu f32[2, 16, 172]"
    # t78 = prims.exp(t77)  # t78: "cpu f32[2, 16, 172]"
    # t79 = prims.add(1.0, t78)  # t79: "cpu f32[2, 16, 172]"
    # t80 = prims.div(1.0, t79)  # t80: "cpu f32[2, 16, 172]"
    # t309 = prims.mul(t322, t80)  # t309: "cpu f32[2, 16, 172]"
    # t310 = prims.mul(t322, t76)  # t310: "cpu f32[2, 16, 172]"
    # t304 = prims.sub(1.0, t80)  # t304: "cpu f32[2, 16, 172]"
    # t305 = prims.mul(t304, t80)  # t305: "cpu f32[2, 16, 172]"
    # t306 = prims.mul(t310, t305)  # t306: "cpu f32[2, 16, 172]"
    # t336 = prims.add(t309, t306)  # t336: "cpu f32[2, 16, 172]"
  del t76, t322
  t294 = torch.matmul(t336, t_feed_forward_w1_weight)  # t294: "cpu f32[2, 16, 64]"
    # t294 = ltorch.matmul(t336, t_feed_forward_w1_weight)  # t294: "cpu f32[2, 16, 64]"
      # t292 = ltorch.reshape(t336, (32, 172))  # t292: "cpu f32[32, 172]"
        # t292 = prims.reshape(t336, (32, 172))  # t292: "cpu f32[32, 172]"
      # t293 = prims.matmul(t292, t_feed_forward_w1_weight)  # t293: "cpu f32[32, 64]"
      # t294 = ltorch.reshape(t293, (2, 16, 64))  # t294: "cpu f32[2, 16, 64]"
        # t294 = prims.reshape(t293, (2, 16, 64))  # t294: "cpu f32[2, 16, 64]"
  del t_feed_forward_w1_weight
  (t337,) = fuser_18(t315, t294)
    # t337 = prims.add(t315, t294)  # t337: "cpu f32[2, 16, 64]"
  del t315, t294
  t295 = torchex.reshape(t336, (32, 172))  # t295: "cpu f32[32, 172]"
    # t295 = prims.reshape(t336, (32, 172))  # t295: "cpu f32[32, 172]"
  del t336
  t296 = torchex.transpose(t295, (1, 0))  # t296: "cpu f32[172, 32]"
    # t296 = prims.transpose(t295, (1, 0))  # t296: "cpu f32[172, 32]"
  del t295
  t298 = torchex.matmul(t296, t318)  # t298: "cpu f32[172, 64]"
    # t298 = prims.matmul(t296, t318)  # t298: "cpu f32[172, 64]"
  del t296, t318
  (t288, t289) = fuser_19(t_ffn_norm_weight, t337, t73)
    # t74 = prims.broadcast_in_dim(t_ffn_norm_weight, [2, 16, 64], (2,))  # t74: "cpu f32[2, 16, 64]"
    # t288 = prims.mul(t337, t74)  # t288: "cpu f32[2, 16, 64]"
    # t289 = prims.mul(t337, t73)  # t289: "cpu f32[2, 16, 64]"
  del t_ffn_norm_weight, t337, t73
  t285 = torchex.sum(t289, (0, 1))  # t285: "cpu f32[64]"
    # t285 = prims.sum(t289, (0, 1))  # t285: "cpu f32[64]"
  del t289
  (t338, t277) = fuser_20(t71, t288, t335, t65)
    # t72 = prims.broadcast_in_dim(t71, [2, 16, 64], (0, 1, 2))  # t72: "cpu f32[2, 16, 64]"
    # t281 = prims.mul(t288, t72)  # t281: "cpu f32[2, 16, 64]"
    # t338 = prims.add(t335, t281)  # t338: "cpu f32[2, 16, 64]"
    # t282 = prims.mul(t288, t65)  # t282: "cpu f32[2, 16, 64]"
    # t277 = prims.sum(t282, (2,))  # t277: "cpu f32[2, 16]"
  del t288, t335
  t278 = torchex.reshape(t277, (2, 16, 1))  # t278: "cpu f32[2, 16, 1]"
    # t278 = prims.reshape(t277, (2, 16, 1))  # t278: "cpu f32[2, 16, 1]"
  del t277
  (t263,) = fuser_21(t71, t278)
    # t271 = prims.mul(t71, t71)  # t271: "cpu f32[2, 16, 1]"
    # t272 = prims.mul(t271, t71)  # t272: "cpu f32[2, 16, 1]"
    # t273 = prims.mul(t278, t272)  # t273: "cpu f32[2, 16, 1]"
    # t274 = prims.mul(t273, -0.5)  # t274: "cpu f32[2, 16, 1]"
    # t266 = prims.sum(t274, (2,))  # t266: "cpu f32[2, 16]"
    # t263 = prims.div(t266, 64.0)  # t263: "cpu f32[2, 16]"
  del t71, t278
  (t339,) = fuser_22(t263, t65, t338)
    # t260 = prims.broadcast_in_dim(t263, [2, 16, 64], (0, 1))  # t260: "cpu f32[2, 16, 64]"
    # t255 = prims.pow(t65, 1.0)  # t255: "cpu f32[2, 16, 64]"
    # t256 = prims.mul(t260, t255)  # t256: "cpu f32[2, 16, 64]"
    # t257 = prims.mul(t256, 2.0)  # t257: "cpu f32[2, 16, 64]"
    # t339 = prims.add(t338, t257)  # t339: "cpu f32[2, 16, 64]"
  del t263, t65, t338
  t246 = torch.matmul(t339, t_attention_wo_weight)  # t246: "cpu f32[2, 16, 64]"
    # t246 = ltorch.matmul(t339, t_attention_wo_weight)  # t246: "cpu f32[2, 16, 64]"
      # t244 = ltorch.reshape(t339, (32, 64))  # t244: "cpu f32[32, 64]"
        # t244 = prims.reshape(t339, (32, 64))  # t244: "cpu f32[32, 64]"
      # t245 = prims.matmul(t244, t_attention_wo_weight)  # t245: "cpu f32[32, 64]"
      # t246 = ltorch.reshape(t245, (2, 16, 64))  # t246: "cpu f32[2, 16, 64]"
        # t246 = prims.reshape(t245, (2, 16, 64))  # t246: "cpu f32[2, 16, 64]"
  del t_attention_wo_weight
  t247 = torchex.reshape(t339, (32, 64))  # t247: "cpu f32[32, 64]"
    # t247 = prims.reshape(t339, (32, 64))  # t247: "cpu f32[32, 64]"
  del t339
  t248 = torchex.transpose(t247, (1, 0))  # t248: "cpu f32[64, 32]"
    # t248 = prims.transpose(t247, (1, 0))  # t248: "cpu f32[64, 32]"
  del t247
  t249 = torchex.reshape(t63, (32, 64))  # t249: "cpu f32[32, 64]"
    # t249 = prims.reshape(t63, (32, 64))  # t249: "cpu f32[32, 64]"
  del t63
  t250 = torchex.matmul(t248, t249)  # t250: "cpu f32[64, 64]"
    # t250 = prims.matmul(t248, t249)  # t250: "cpu f32[64, 64]"
  del t248, t249
  t241 = torchex.reshape(t246, (2, 16, 8, 8))  # t241: "cpu f32[2, 16, 8, 8]"
    # t241 = prims.reshape(t246, (2, 16, 8, 8))  # t241: "cpu f32[2, 16, 8, 8]"
  del t246
  t238 = torchex.transpose(t241, (0, 2, 1, 3))  # t238: "cpu f32[2, 8, 16, 8]"
    # t238 = prims.transpose(t241, (0, 2, 1, 3))  # t238: "cpu f32[2, 8, 16, 8]"
  del t241
  t43 = torchex.broadcast_in_dim(t42, [2, 2, 4, 16, 8], (0, 1, 2, 3, 4))  # t43: "cpu f32[2, 2, 4, 16, 8]"
    # t43 = prims.broadcast_in_dim(t42, [2, 2, 4, 16, 8], (0, 1, 2, 3, 4))  # t43: "cpu f32[2, 2, 4, 16, 8]"
  del t42
  t44 = torch.reshape(t43, 2, 8, 16, 8)  # t44: "cpu f32[2, 8, 16, 8]"
    # t44 = ltorch.reshape(t43, 2, 8, 16, 8)  # t44: "cpu f32[2, 8, 16, 8]"
      # t44 = prims.reshape(t43, (2, 8, 16, 8))  # t44: "cpu f32[2, 8, 16, 8]"
  del t43
  t232 = torchex.transpose(t44, (0, 1, 3, 2))  # t232: "cpu f32[2, 8, 8, 16]"
    # t232 = prims.transpose(t44, (0, 1, 3, 2))  # t232: "cpu f32[2, 8, 8, 16]"
  del t44
  t233 = torch.matmul(t238, t232)  # t233: "cpu f32[2, 8, 16, 16]"
    # t233 = ltorch.matmul(t238, t232)  # t233: "cpu f32[2, 8, 16, 16]"
      # t233 = prims.matmul(t238, t232)  # t233: "cpu f32[2, 8, 16, 16]"
  del t232
  t234 = torchex.transpose(t60, (0, 1, 3, 2))  # t234: "cpu f32[2, 8, 16, 16]"
    # t234 = prims.transpose(t60, (0, 1, 3, 2))  # t234: "cpu f32[2, 8, 16, 16]"
  t235 = torch.matmul(t234, t238)  # t235: "cpu f32[2, 8, 16, 8]"
    # t235 = ltorch.matmul(t234, t238)  # t235: "cpu f32[2, 8, 16, 8]"
      # t235 = prims.matmul(t234, t238)  # t235: "cpu f32[2, 8, 16, 8]"
  del t234, t238
  (t229,) = fuser_23(t233, t60)
    # t224 = prims.mul(t233, t60)  # t224: "cpu f32[2, 8, 16, 16]"
    # t225 = prims.sum(t224, (3,))  # t225: "cpu f32[2, 8, 16]"
    # t226 = prims.broadcast_in_dim(t225, [2, 8, 16, 1], (0, 1, 2))  # t226: "cpu f32[2, 8, 16, 1]"
    # t227 = prims.broadcast_in_dim(t226, [2, 8, 16, 16], (0, 1, 2, 3))  # t227: "cpu f32[2, 8, 16, 16]"
    # t228 = prims.sub(t233, t227)  # t228: "cpu f32[2, 8, 16, 16]"
    # t229 = prims.mul(t60, t228)  # t229: "cpu f32[2, 8, 16, 16]"
  del t233, t60
  t48 = Tensor.__getitem__(t_attention_mask, (slice(None,16,None), slice(None,16,None)))  # t48: "cpu b8[16, 16]"
    # t48 = ltorch.getitem(t_attention_mask, (slice(None,16,None), slice(None,16,None)))  # t48: "cpu b8[16, 16]"
      # t48 = prims.slice_prim(t_attention_mask, [0, 0], [16, 16], [1, 1])  # t48: "cpu b8[16, 16]"
  del t_attention_mask
  (t49,) = fuser_24(t48)
    # t49 = prims.bitwise_not(t48)  # t49: "cpu b8[16, 16]"
  del t48
  t40 = torchex.broadcast_in_dim(t39, [2, 2, 4, 16, 8], (0, 1, 2, 3, 4))  # t40: "cpu f32[2, 2, 4, 16, 8]"
    # t40 = prims.broadcast_in_dim(t39, [2, 2, 4, 16, 8], (0, 1, 2, 3, 4))  # t40: "cpu f32[2, 2, 4, 16, 8]"
  del t39
  (t210,) = fuser_25(t49, t229)
    # t50 = prims.broadcast_in_dim(t49, [2, 8, 16, 16], (2, 3))  # t50: "cpu b8[2, 8, 16, 16]"
    # t213 = prims.where(t50, 0.0, t229)  # t213: "cpu f32[2, 8, 16, 16]"
    # t210 = prims.div(t213, 2.8284271247461903)  # t210: "cpu f32[2, 8, 16, 16]"
  del t49, t229
  t41 = torch.reshape(t40, 2, 8, 16, 8)  # t41: "cpu f32[2, 8, 16, 8]"
    # t41 = ltorch.reshape(t40, 2, 8, 16, 8)  # t41: "cpu f32[2, 8, 16, 8]"
      # t41 = prims.reshape(t40, (2, 8, 16, 8))  # t41: "cpu f32[2, 8, 16, 8]"
  del t40
  t45 = torch.transpose(t41, -2, -1)  # t45: "cpu f32[2, 8, 8, 16]"
    # t45 = ltorch.transpose(t41, -2, -1)  # t45: "cpu f32[2, 8, 8, 16]"
      # t45 = prims.transpose(t41, (0, 1, 3, 2))  # t45: "cpu f32[2, 8, 8, 16]"
  del t41
  t204 = torchex.transpose(t45, (0, 1, 3, 2))  # t204: "cpu f32[2, 8, 16, 8]"
    # t204 = prims.transpose(t45, (0, 1, 3, 2))  # t204: "cpu f32[2, 8, 16, 8]"
  del t45
  t205 = torch.matmul(t210, t204)  # t205: "cpu f32[2, 8, 16, 8]"
    # t205 = ltorch.matmul(t210, t204)  # t205: "cpu f32[2, 8, 16, 8]"
      # t205 = prims.matmul(t210, t204)  # t205: "cpu f32[2, 8, 16, 8]"
  del t204
  t206 = torchex.transpose(t29, (0, 1, 3, 2))  # t206: "cpu f32[2, 8, 8, 16]"
    # t206 = prims.transpose(t29, (0, 1, 3, 2))  # t206: "cpu f32[2, 8, 8, 16]"
  del t29
  t207 = torch.matmul(t206, t210)  # t207: "cpu f32[2, 8, 8, 16]"
    # t207 = ltorch.matmul(t206, t210)  # t207: "cpu f32[2, 8, 8, 16]"
      # t207 = prims.matmul(t206, t210)  # t207: "cpu f32[2, 8, 8, 16]"
  del t206, t210
  t201 = torchex.transpose(t207, (0, 1, 3, 2))  # t201: "cpu f32[2, 8, 16, 8]"
    # t201 = prims.transpose(t207, (0, 1, 3, 2))  # t201: "cpu f32[2, 8, 16, 8]"
  del t207
  t198 = torchex.reshape(t235, (2, 2, 4, 16, 8))  # t198: "cpu f32[2, 2, 4, 16, 8]"
    # t198 = prims.reshape(t235, (2, 2, 4, 16, 8))  # t198: "cpu f32[2, 2, 4, 16, 8]"
  del t235
  t194 = torchex.sum(t198, (2,))  # t194: "cpu f32[2, 2, 16, 8]"
    # t194 = prims.sum(t198, (2,))  # t194: "cpu f32[2, 2, 16, 8]"
  del t198
  t195 = torchex.reshape(t194, (2, 2, 1, 16, 8))  # t195: "cpu f32[2, 2, 1, 16, 8]"
    # t195 = prims.reshape(t194, (2, 2, 1, 16, 8))  # t195: "cpu f32[2, 2, 1, 16, 8]"
  del t194
  t191 = torchex.sum(t195, (2,))  # t191: "cpu f32[2, 2, 16, 8]"
    # t191 = prims.sum(t195, (2,))  # t191: "cpu f32[2, 2, 16, 8]"
  del t195
  t188 = torchex.reshape(t201, (2, 2, 4, 16, 8))  # t188: "cpu f32[2, 2, 4, 16, 8]"
    # t188 = prims.reshape(t201, (2, 2, 4, 16, 8))  # t188: "cpu f32[2, 2, 4, 16, 8]"
  del t201
  t184 = torchex.sum(t188, (2,))  # t184: "cpu f32[2, 2, 16, 8]"
    # t184 = prims.sum(t188, (2,))  # t184: "cpu f32[2, 2, 16, 8]"
  del t188
  t185 = torchex.reshape(t184, (2, 2, 1, 16, 8))  # t185: "cpu f32[2, 2, 1, 16, 8]"
    # t185 = prims.reshape(t184, (2, 2, 1, 16, 8))  # t185: "cpu f32[2, 2, 1, 16, 8]"
  del t184
  t181 = torchex.sum(t185, (2,))  # t181: "cpu f32[2, 2, 16, 8]"
    # t181 = prims.sum(t185, (2,))  # t181: "cpu f32[2, 2, 16, 8]"
  del t185
  t20 = Tensor.__getitem__(t_attention_sin, slice(None,16,None))  # t20: "cpu f32[16, 8]"
    # t20 = ltorch.getitem(t_attention_sin, slice(None,16,None))  # t20: "cpu f32[16, 8]"
      # t20 = prims.slice_prim(t_attention_sin, [0, 0], [16, 8], [1, 1])  # t20: "cpu f32[16, 8]"
  del t_attention_sin
  (t176,) = fuser_26(t20, t181)
    # t36 = prims.broadcast_in_dim(t20, [2, 2, 16, 8], (2, 3))  # t36: "cpu f32[2, 2, 16, 8]"
    # t176 = prims.mul(t181, t36)  # t176: "cpu f32[2, 2, 16, 8]"
  t172 = torchex.slice_prim(t176, [0, 0, 0, 0], [2, 2, 16, 4], [1, 1, 1, 1])  # t172: "cpu f32[2, 2, 16, 4]"
    # t172 = prims.slice_prim(t176, [0, 0, 0, 0], [2, 2, 16, 4], [1, 1, 1, 1])  # t172: "cpu f32[2, 2, 16, 4]"
  t173 = torchex.slice_prim(t176, [0, 0, 0, 4], [2, 2, 16, 8], [1, 1, 1, 1])  # t173: "cpu f32[2, 2, 16, 4]"
    # t173 = prims.slice_prim(t176, [0, 0, 0, 4], [2, 2, 16, 8], [1, 1, 1, 1])  # t173: "cpu f32[2, 2, 16, 4]"
  del t176
  t169 = torchex.pad(t173, 0.0, [(0, 0, 0), (0, 0, 0), (0, 0, 0), (0, 4, 0)])  # t169: "cpu f32[2, 2, 16, 8]"
    # t169 = prims.pad(t173, 0.0, [(0, 0, 0), (0, 0, 0), (0, 0, 0), (0, 4, 0)])  # t169: "cpu f32[2, 2, 16, 8]"
  del t173
  (t166,) = fuser_27(t172)
    # t166 = prims.neg(t172)  # t166: "cpu f32[2, 2, 16, 4]"
  del t172
  t163 = torchex.pad(t166, 0.0, [(0, 0, 0), (0, 0, 0), (0, 0, 0), (4, 0, 0)])  # t163: "cpu f32[2, 2, 16, 8]"
    # t163 = prims.pad(t166, 0.0, [(0, 0, 0), (0, 0, 0), (0, 0, 0), (4, 0, 0)])  # t163: "cpu f32[2, 2, 16, 8]"
  del t166
  (t340,) = fuser_28(t169, t163)
    # t340 = prims.add(t169, t163)  # t340: "cpu f32[2, 2, 16, 8]"
  del t169, t163
  t19 = Tensor.__getitem__(t_attention_cos, slice(None,16,None))  # t19: "cpu f32[16, 8]"
    # t19 = ltorch.getitem(t_attention_cos, slice(None,16,None))  # t19: "cpu f32[16, 8]"
      # t19 = prims.slice_prim(t_attention_cos, [0, 0], [16, 8], [1, 1])  # t19: "cpu f32[16, 8]"
  del t_attention_cos
  (t155,) = fuser_29(t20, t205)
    # t27 = prims.broadcast_in_dim(t20, [2, 8, 16, 8], (2, 3))  # t27: "cpu f32[2, 8, 16, 8]"
    # t155 = prims.mul(t205, t27)  # t155: "cpu f32[2, 8, 16, 8]"
  del t20
  (t341,) = fuser_30(t19, t181, t340)
    # t30 = prims.broadcast_in_dim(t19, [2, 2, 16, 8], (2, 3))  # t30: "cpu f32[2, 2, 16, 8]"
    # t160 = prims.mul(t181, t30)  # t160: "cpu f32[2, 2, 16, 8]"
    # t341 = prims.add(t340, t160)  # t341: "cpu f32[2, 2, 16, 8]"
  del t181, t340
  t151 = torchex.slice_prim(t155, [0, 0, 0, 0], [2, 8, 16, 4], [1, 1, 1, 1])  # t151: "cpu f32[2, 8, 16, 4]"
    # t151 = prims.slice_prim(t155, [0, 0, 0, 0], [2, 8, 16, 4], [1, 1, 1, 1])  # t151: "cpu f32[2, 8, 16, 4]"
  t152 = torchex.slice_prim(t155, [0, 0, 0, 4], [2, 8, 16, 8], [1, 1, 1, 1])  # t152: "cpu f32[2, 8, 16, 4]"
    # t152 = prims.slice_prim(t155, [0, 0, 0, 4], [2, 8, 16, 8], [1, 1, 1, 1])  # t152: "cpu f32[2, 8, 16, 4]"
  del t155
  t148 = torchex.pad(t152, 0.0, [(0, 0, 0), (0, 0, 0), (0, 0, 0), (0, 4, 0)])  # t148: "cpu f32[2, 8, 16, 8]"
    # t148 = prims.pad(t152, 0.0, [(0, 0, 0), (0, 0, 0), (0, 0, 0), (0, 4, 0)])  # t148: "cpu f32[2, 8, 16, 8]"
  del t152
  (t145,) = fuser_31(t151)
    # t145 = prims.neg(t151)  # t145: "cpu f32[2, 8, 16, 4]"
  del t151
  t142 = torchex.pad(t145, 0.0, [(0, 0, 0), (0, 0, 0), (0, 0, 0), (4, 0, 0)])  # t142: "cpu f32[2, 8, 16, 8]"
    # t142 = prims.pad(t145, 0.0, [(0, 0, 0), (0, 0, 0), (0, 0, 0), (4, 0, 0)])  # t142: "cpu f32[2, 8, 16, 8]"
  del t145
  (t343,) = fuser_32(t148, t142, t19, t205)
    # t342 = prims.add(t148, t142)  # t342: "cpu f32[2, 8, 16, 8]"
    # t21 = prims.broadcast_in_dim(t19, [2, 8, 16, 8], (2, 3))  # t21: "cpu f32[2, 8, 16, 8]"
    # t139 = prims.mul(t205, t21)  # t139: "cpu f32[2, 8, 16, 8]"
    # t343 = prims.add(t342, t139)  # t343: "cpu f32[2, 8, 16, 8]"
  del t148, t142, t19, t205
  t136 = torchex.transpose(t191, (0, 2, 1, 3))  # t136: "cpu f32[2, 16, 2, 8]"
    # t136 = prims.transpose(t191, (0, 2, 1, 3))  # t136: "cpu f32[2, 16, 2, 8]"
  del t191
  t133 = torchex.reshape(t136, (2, 16, 16))  # t133: "cpu f32[2, 16, 16]"
    # t133 = prims.reshape(t136, (2, 16, 16))  # t133: "cpu f32[2, 16, 16]"
  del t136
  t126 = torch.matmul(t133, t_attention_wv_weight)  # t126: "cpu f32[2, 16, 64]"
    # t126 = ltorch.matmul(t133, t_attention_wv_weight)  # t126: "cpu f32[2, 16, 64]"
      # t124 = ltorch.reshape(t133, (32, 16))  # t124: "cpu f32[32, 16]"
        # t124 = prims.reshape(t133, (32, 16))  # t124: "cpu f32[32, 16]"
      # t125 = prims.matmul(t124, t_attention_wv_weight)  # t125: "cpu f32[32, 64]"
      # t126 = ltorch.reshape(t125, (2, 16, 64))  # t126: "cpu f32[2, 16, 64]"
        # t126 = prims.reshape(t125, (2, 16, 64))  # t126: "cpu f32[2, 16, 64]"
  del t_attention_wv_weight
  t127 = torchex.reshape(t133, (32, 16))  # t127: "cpu f32[32, 16]"
    # t127 = prims.reshape(t133, (32, 16))  # t127: "cpu f32[32, 16]"
  del t133
  t128 = torchex.transpose(t127, (1, 0))  # t128: "cpu f32[16, 32]"
    # t128 = prims.transpose(t127, (1, 0))  # t128: "cpu f32[16, 32]"
  del t127
  (t7, t9) = fuser_33(t5, x, t_attention_norm_weight)
    # t6 = prims.broadcast_in_dim(t5, [2, 16, 64], (0, 1, 2))  # t6: "cpu f32[2, 16, 64]"
    # t7 = prims.mul(x, t6)  # t7: "cpu f32[2, 16, 64]"
    # t8 = prims.broadcast_in_dim(t_attention_norm_weight, [2, 16, 64], (2,))  # t8: "cpu f32[2, 16, 64]"
    # t9 = prims.mul(t7, t8)  # t9: "cpu f32[2, 16, 64]"
  del t5, x, t_attention_norm_weight
  t129 = torchex.reshape(t9, (32, 64))  # t129: "cpu f32[32, 64]"
    # t129 = prims.reshape(t9, (32, 64))  # t129: "cpu f32[32, 64]"
  del t9
  t130 = torchex.matmul(t128, t129)  # t130: "cpu f32[16, 64]"
    # t130 = prims.matmul(t128, t129)  # t130: "cpu f32[16, 64]"
  del t128
  t121 = torchex.transpose(t341, (0, 2, 1, 3))  # t121: "cpu f32[2, 16, 2, 8]"
    # t121 = prims.transpose(t341, (0, 2, 1, 3))  # t121: "cpu f32[2, 16, 2, 8]"
  del t341
  t118 = torchex.reshape(t121, (2, 16, 16))  # t118: "cpu f32[2, 16, 16]"
    # t118 = prims.reshape(t121, (2, 16, 16))  # t118: "cpu f32[2, 16, 16]"
  del t121
  t111 = torch.matmul(t118, t_attention_wk_weight)  # t111: "cpu f32[2, 16, 64]"
    # t111 = ltorch.matmul(t118, t_attention_wk_weight)  # t111: "cpu f32[2, 16, 64]"
      # t109 = ltorch.reshape(t118, (32, 16))  # t109: "cpu f32[32, 16]"
        # t109 = prims.reshape(t118, (32, 16))  # t109: "cpu f32[32, 16]"
      # t110 = prims.matmul(t109, t_attention_wk_weight)  # t110: "cpu f32[32, 64]"
      # t111 = ltorch.reshape(t110, (2, 16, 64))  # t111: "cpu f32[2, 16, 64]"
        # t111 = prims.reshape(t110, (2, 16, 64))  # t111: "cpu f32[2, 16, 64]"
  del t_attention_wk_weight
  (t344,) = fuser_34(t126, t111)
    # t344 = prims.add(t126, t111)  # t344: "cpu f32[2, 16, 64]"
  del t126, t111
  t112 = torchex.reshape(t118, (32, 16))  # t112: "cpu f32[32, 16]"
    # t112 = prims.reshape(t118, (32, 16))  # t112: "cpu f32[32, 16]"
  del t118
  t113 = torchex.transpose(t112, (1, 0))  # t113: "cpu f32[16, 32]"
    # t113 = prims.transpose(t112, (1, 0))  # t113: "cpu f32[16, 32]"
  del t112
  t115 = torchex.matmul(t113, t129)  # t115: "cpu f32[16, 64]"
    # t115 = prims.matmul(t113, t129)  # t115: "cpu f32[16, 64]"
  del t113
  t106 = torchex.transpose(t343, (0, 2, 1, 3))  # t106: "cpu f32[2, 16, 8, 8]"
    # t106 = prims.transpose(t343, (0, 2, 1, 3))  # t106: "cpu f32[2, 16, 8, 8]"
  del t343
  t103 = torchex.reshape(t106, (2, 16, 64))  # t103: "cpu f32[2, 16, 64]"
    # t103 = prims.reshape(t106, (2, 16, 64))  # t103: "cpu f32[2, 16, 64]"
  del t106
  t96 = torch.matmul(t103, t_attention_wq_weight)  # t96: "cpu f32[2, 16, 64]"
    # t96 = ltorch.matmul(t103, t_attention_wq_weight)  # t96: "cpu f32[2, 16, 64]"
      # t94 = ltorch.reshape(t103, (32, 64))  # t94: "cpu f32[32, 64]"
        # t94 = prims.reshape(t103, (32, 64))  # t94: "cpu f32[32, 64]"
      # t95 = prims.matmul(t94, t_attention_wq_weight)  # t95: "cpu f32[32, 64]"
      # t96 = ltorch.reshape(t95, (2, 16, 64))  # t96: "cpu f32[2, 16, 64]"
        # t96 = prims.reshape(t95, (2, 16, 64))  # t96: "cpu f32[2, 16, 64]"
  del t_attention_wq_weight
  (t345,) = fuser_35(t344, t96)
    # t345 = prims.add(t344, t96)  # t345: "cpu f32[2, 16, 64]"
  del t344, t96
  t97 = torchex.reshape(t103, (32, 64))  # t97: "cpu f32[32, 64]"
    # t97 = prims.reshape(t103, (32, 64))  # t97: "cpu f32[32, 64]"
  del t103
  t98 = torchex.transpose(t97, (1, 0))  # t98: "cpu f32[64, 32]"
    # t98 = prims.transpose(t97, (1, 0))  # t98: "cpu f32[64, 32]"
  del t97
  t100 = torchex.matmul(t98, t129)  # t100: "cpu f32[64, 64]"
    # t100 = prims.matmul(t98, t129)  # t100: "cpu f32[64, 64]"
  del t98, t129
  (t91,) = fuser_36(t345, t7)
    # t91 = prims.mul(t345, t7)  # t91: "cpu f32[2, 16, 64]"
  del t345, t7
  t88 = torchex.sum(t91, (0, 1))  # t88: "cpu f32[64]"
    # t88 = prims.sum(t91, (0, 1))  # t88: "cpu f32[64]"
  del t91
  return (None, t88, t100, t115, t130, t250, t285, t298, t332, t319, None, None, None)
