ps_5_0
// MipLODBias folded into the offset forms, and the border branch on each:
// sample_b with an offset (bias added), sample_d on a 2D array (gradients
// scaled by exp2(b)), sample_c with an offset (es300 bias form, vk450
// textureGradOffset), sample_c_lz on a 2D array with an offset (gradients
// exp2(b) texels long), sample_l on a 3D texture (emulated path over three
// axes)
.semantic v1 TEXCOORD 0
.semantic v2 TEXCOORD 1
dcl_sampler s0, mode_default
dcl_sampler s1, mode_comparison
dcl_resource_texture2d (float,float,float,float) t0
dcl_resource_texture2darray (float,float,float,float) t1
dcl_resource_texture3d (float,float,float,float) t2
dcl_resource_texture2d (float,float,float,float) t3
dcl_input_ps linear v1.xyzw
dcl_input_ps linear v2.xyzw
dcl_output o0.xyzw
dcl_temps 4
sample_b_aoffimmi_indexable(1,-2,0)(texture2d)(float,float,float,float) r0.xyzw, v1.xyxx, t0.xyzw, s0, v1.w
sample_d_indexable(texture2darray)(float,float,float,float) r1.xyzw, v1.xyzx, t1.xyzw, s0, v2.xyxx, v2.zwzz
add r0.xyzw, r0.xyzw, r1.xyzw
sample_c_aoffimmi_indexable(-1,0,0)(texture2d)(float,float,float,float) r2.x, v1.xyxx, t3.xxxx, s1, v1.z
sample_c_lz_aoffimmi_indexable(0,1,0)(texture2darray)(float,float,float,float) r2.y, v1.xyzx, t1.xxxx, s1, v1.w
sample_l_indexable(texture3d)(float,float,float,float) r3.xyzw, v1.xyzx, t2.xyzw, s0, v2.x
add r0.xyzw, r0.xyzw, r3.xyzw
mul o0.xyzw, r0.xyzw, r2.xxxy
ret
