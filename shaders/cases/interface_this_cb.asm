// One interface, two classes whose data lives in a constant buffer: the
// instance data `this[0]` says which buffer (.x) and which row (.y), and
// the code indexes `cb[this.x][this.y + …]` as fxc writes it.
// Class A (ft0 = fb0) returns its row; class B (ft1 = fb1) returns its
// row plus the next one.
ps_5_0
dcl_constantbuffer cb0[4], immediateIndexed
dcl_constantbuffer cb1[4], immediateIndexed
dcl_function_body fb0
dcl_function_body fb1
dcl_function_table ft0 = {fb0}
dcl_function_table ft1 = {fb1}
dcl_interface fp0[1][1] = {ft0, ft1}
dcl_output o0.xyzw
dcl_temps 2
fcall fp0[0][0]
mov o0.xyzw, r0.xyzw
ret
label fb0
mov r1.x, this[0].x
mov r1.y, this[0].y
mov r0.xyzw, cb[r1.x + 0][r1.y + 0].xyzw
ret
label fb1
mov r1.xy, this[0].xyxx
add r0.xyzw, cb[r1.x + 0][r1.y + 0].xyzw, cb[r1.x + 0][r1.y + 1].xyzw
ret
