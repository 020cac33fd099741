ps_5_0
// ld on an int texture: isampler2D (itexture2D in vk450) and an Int result
// bitcast into the float register file (D3D forbids filtered sampling of
// integer formats, so loads are how integer textures are read)
.semantic v1 TEXCOORD 0
dcl_resource_texture2d (sint,sint,sint,sint) t0
dcl_input_ps linear v1.xyzw
dcl_output o0.xyzw
dcl_temps 2
ftoi r1.xy, v1.xyxx
mov r1.zw, l(0,0,0,0)
ld_indexable(texture2d)(sint,sint,sint,sint) r0.xyzw, r1.xyzw, t0.xyzw
itof o0.xyzw, r0.xyzw
ret
