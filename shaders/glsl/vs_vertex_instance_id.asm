// SV_VertexID and SV_InstanceID come from gl_VertexID / gl_InstanceID (int),
// stored as int bits in the float register file.
vs_5_0
dcl_input_sgv v0.x, vertex_id
dcl_input_sgv v1.x, instance_id
dcl_output_siv o0.xyzw, position
dcl_temps 1
iadd r0.x, v0.x, v1.x
utof r0.y, v0.x
itof r0.z, v1.x
mov r0.w, l(1.000000)
mov o0.xyzw, r0.xyzw
ret
