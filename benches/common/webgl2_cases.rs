//! Cases for runs at scale on the WebGL2 backend (`tests/webgl2_scale.rs`,
//! `benches/webgl2_scale.rs`): many full-size RGBA32F targets drawn by a
//! handful of different shaders, so a run is neither one shader drawn
//! hundreds of times nor a sweep of tiny targets. Nothing here states an
//! expected value: each case passes when WebGL2 draws what the emulator
//! draws (the suite's comparison), within the tolerance a family sets.
//!
//! Textures are 4x4 and the quad maps them onto the whole target, so at
//! 640x480 and 1920x1080 no pixel centre falls on a texel edge or centre
//! line (where point sampling and gather pick their texels): for these
//! sizes `(x + 0.5) * 4 / W` and `(y + 0.5) * 4 / H` are never whole or
//! half numbers. At 640x480 the nearest centre is 1/320 of a texel from an
//! edge, more than the 1/256 to which D3D lets a sampler round texel
//! coordinates (8 bits of sub-texel precision; SwiftShader does), so
//! both sides pick the same texel. At 1920x1080 it is 1/960 of a texel,
//! inside that rounding, so the large cases draw only the families that
//! pick no texel in the sampler: the ALU one, and gather, which the es300
//! translation computes in the shader at full float precision.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The quad over the whole target with `v1` = (u, v, z, 1) from (0, 0) at
/// the top left to (1, 1) at the bottom right.
fn quad(z: f32) -> String {
    format!(
        "[quad]\nvertex -1  1 0.5 1   v1 0 0 {z} 1\nvertex  1  1 0.5 1   v1 1 0 {z} 1\nvertex -1 -1 0.5 1   v1 0 1 {z} 1\nvertex  1 -1 0.5 1   v1 1 1 {z} 1\n"
    )
}

/// A case of shader family `family` (0..5), its constants varied by `k`.
fn case(k: usize, family: usize, width: u32, height: u32, project: &Path) -> String {
    let mut c = String::new();
    let seed = 1000 + k;
    let addresses = ["clamp", "wrap", "mirror"];
    let compares = [
        "less",
        "less_equal",
        "greater",
        "greater_equal",
        "not_equal",
    ];
    let z = 0.125 + (k % 7) as f32 * 0.125;
    match family {
        // ALU on SV_Position: a gradient over the target, a product and
        // a fractional part; 2 ULP covers a fused multiply-add.
        0 => {
            let (sx, sy) = (1 + k % 3, 1 + k % 4);
            let _ = write!(
                c,
                "[pixel shader]\nps_5_0\ndcl_input_ps_siv linear noperspective v0.xyzw, position\ndcl_output o0.xyzw\ndcl_temps 1\n\
                 mul r0.xy, v0.xyxx, l({}, {}, 0, 0)\nmul r0.z, r0.x, r0.y\nadd r0.w, r0.x, r0.y\nfrc r0.w, r0.w\nmov o0.xyzw, r0.xyzw\nret\n\
                 [tolerance]\nulp 2\n",
                sx as f32 / width as f32,
                sy as f32 / height as f32
            );
        }
        // A point-sampled float texture, addressing varied.
        1 => {
            let _ = write!(
                c,
                "[pixel shader]\nps_5_0\ndcl_sampler s0, mode_default\ndcl_resource_texture2d (float,float,float,float) t0\ndcl_input_ps linear v1.xy\ndcl_output o0.xyzw\ndcl_temps 1\n\
                 sample_indexable(texture2d)(float,float,float,float) r0.xyzw, v1.xyxx, t0.xyzw, s0\nmov o0.xyzw, r0.xyzw\nret\n\
                 {}[texture 0]\nformat rgba32_float\nsize 4 4\nfill pattern {seed}\n[sampler 0]\nfilter point\naddress {}\n",
                quad(z),
                addresses[k % 3]
            );
        }
        // gather4 (WebGL2 emulates it with texelFetch) of one channel.
        2 => {
            let channel = ["x", "y", "z", "w"][k % 4];
            let _ = write!(
                c,
                "[pixel shader]\nps_5_0\ndcl_sampler s0, mode_default\ndcl_resource_texture2d (float,float,float,float) t0\ndcl_input_ps linear v1.xy\ndcl_output o0.xyzw\ndcl_temps 1\n\
                 gather4_indexable(texture2d)(float,float,float,float) r0.xyzw, v1.xyxx, t0.{channel}xxx, s0.x\nmov o0.xyzw, r0.xyzw\nret\n\
                 {}[texture 0]\nformat rgba32_float\nsize 4 4\nfill pattern {seed}\n[sampler 0]\nfilter point\naddress {}\n",
                quad(z),
                addresses[k % 3]
            );
        }
        // A shadow compare at a reference depth varied per case.
        3 => {
            let _ = write!(
                c,
                "[pixel shader]\nps_5_0\ndcl_sampler s0, mode_comparison\ndcl_resource_texture2d (float,float,float,float) t0\ndcl_input_ps linear v1.xyz\ndcl_output o0.xyzw\ndcl_temps 1\n\
                 sample_c_lz_indexable(texture2d)(float,float,float,float) r0.x, v1.xyxx, t0.xxxx, s0, v1.z\nmov o0.xyzw, r0.xxxx\nret\n\
                 {}[texture 0]\nformat d32_float\nsize 4 4\nfill pattern {seed}\n[sampler 0]\nfilter point\naddress clamp\ncompare {}\n",
                quad(z),
                compares[k % compares.len()]
            );
        }
        // The project's shadow PCF example (sample_c_lz and gather4_c).
        _ => {
            let _ = write!(
                c,
                "[pixel shader file]\n{}\n{}[texture 0]\nformat d32_float\nsize 4 4\nfill pattern {seed}\n[sampler 0]\nfilter point\naddress clamp\ncompare {}\n[constant buffer 0]\nrow 0 float 0.5 0.25 {} 1\n",
                project.join("shaders/shadow_pcf.asm").display(),
                quad(z),
                compares[k % compares.len()],
                (k % 4) as f32 * 0.25
            );
        }
    }
    let _ = write!(
        c,
        "[render target]\nsize {width} {height}\nformat 0 rgba32_float\n"
    );
    c
}

/// Writes `count` cases at 640x480 and `large` at 1920x1080 into `dir`
/// (`case_0000.case`, …, the large ones among them), returning their
/// paths in order. `project` is the project's root, where the PCF
/// example's shader is.
pub fn write_cases(dir: &Path, count: usize, large: usize, project: &Path) -> Vec<PathBuf> {
    std::fs::create_dir_all(dir).expect("the cases' folder");
    let total = count + large;
    // The large ones spread through the run, not bunched at one end.
    let every = total.checked_div(large).unwrap_or(usize::MAX);
    let mut paths = Vec::new();
    let mut made_large = 0;
    for k in 0..total {
        let big = made_large < large && k % every == every / 2;
        made_large += usize::from(big);
        let (w, h, family) = if big {
            (1920, 1080, [0, 2][made_large % 2])
        } else {
            (640, 480, k % 5)
        };
        let path = dir.join(format!("case_{k:04}.case"));
        std::fs::write(&path, case(k, family, w, h, project)).expect("writing a case");
        paths.push(path);
    }
    paths
}
