// A pixel shader that never ends: the loop has no break, so a run stops
// only at the emulator's instruction budget (tests/trace_cli.rs). The
// outputs are written before the loop, so a run cut short still has them.
ps_5_0
dcl_output o0.xyzw
dcl_temps 1
mov o0.xyzw, l(0.250000, 0.500000, 0.750000, 1.000000)
loop
  iadd r0.x, r0.x, l(1)
endloop
ret
