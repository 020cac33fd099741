// The source shaders/debugger/names.asm stands for: a constant buffer
// whose first row packs a float2, an int and a uint, a column-major
// matrix over the next two rows, a named texture and sampler, and two
// semantics packed into one input register. The listing was written
// by hand in the shape fxc gives it; the debugger shows this file in
// its HLSL pane (tests/tui_hlsl.rs).

cbuffer cbFxaa : register(b1)
{
	float2 rcpFrame;
	int count;
	uint flags;
	float4x2 world;
};

Texture2D g_Texture : register(t0);
SamplerState g_Sampler : register(s0);

float4 main(float4 pos : SV_Position,
	nointerpolation float2 tc0 : TEXCOORD0,
	nointerpolation float2 tc1 : TEXCOORD1) : SV_Target
{
	// mul r0.xy, v1.xyxx, cb1[0].xyxx
	float2 uv = tc0 * rcpFrame;
	// add r0.xy, r0.xyxx, v1.zwzz
	uv += tc1;
	// sample_indexable(texture2d) o0.xyzw, r0.xyxx, t0.xyzw, s0
	return g_Texture.Sample(g_Sampler, uv);
}
