//! The GPU path end to end on small cases whose every pixel is computed by
//! hand (`tests/cases/gpu_smoke/`), and a case past the adapter's storage
//! buffer limit refused by name before drawing. Without a Vulkan adapter these tests
//! fail, saying how to install lavapipe: a skipped GPU test would let the
//! differential suite rot unnoticed.

use std::path::{Path, PathBuf};
use std::time::Instant;

use dxbc_dbg::glsl::{Dialect, Options};
use dxbc_dbg::harness::case::Case;
use dxbc_dbg::harness::gpu::Gpu;
use dxbc_dbg::harness::image::Image;
use dxbc_dbg::harness::suite::{self, RunOptions};

fn gpu() -> Gpu {
    Gpu::new().unwrap_or_else(|e| {
        panic!(
            "{e}\nThe GPU tests need a Vulkan driver; without a GPU install Mesa's lavapipe \
             (`apt-get install mesa-vulkan-drivers`)."
        )
    })
}

fn case_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/cases")
        .join(name)
}

/// Renders a case file, printing the frame time.
fn render(gpu: &Gpu, name: &str) -> Vec<Image> {
    let case = Case::load(&case_path(name)).expect("case parses");
    let shaders = case.shaders().expect("shaders assemble");
    let start = Instant::now();
    let images = gpu
        .render(&case, &shaders, &Options::new(Dialect::Vk450))
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    eprintln!("{name}: {:?} on {}", start.elapsed(), gpu.adapter_name());
    images
}

fn close(a: [f32; 4], b: [f32; 4], tol: f32) -> bool {
    a.iter()
        .zip(&b)
        .all(|(x, y)| x.to_bits() == y.to_bits() || (x - y).abs() <= tol)
}

#[test]
fn constant_colour_covers_the_target() {
    let gpu = gpu();
    let images = render(&gpu, "gpu_smoke/constant.case");
    assert_eq!(images.len(), 1);
    let img = &images[0];
    assert_eq!((img.width, img.height), (4, 4));
    for p in &img.pixels {
        assert_eq!(*p, [0.25, 0.5, 0.75, 1.0]);
    }
}

#[test]
fn sv_position_is_pixel_centre_depth_and_clip_w() {
    let gpu = gpu();
    let img = &render(&gpu, "gpu_smoke/position.case")[0];
    for y in 0..4 {
        for x in 0..4 {
            let cx = x as f32 + 0.5;
            let want = [cx, y as f32 + 0.5, 0.5, 8.0 / (8.0 - cx)];
            let got = img.get(x, y);
            assert_eq!(&got[..2], &want[..2], "pixel ({x}, {y}) xy");
            assert!(
                close(got, want, 1e-6),
                "pixel ({x}, {y}): {got:?} vs {want:?}"
            );
        }
    }
}

#[test]
fn ld_fetches_each_texel_bit_exactly() {
    let gpu = gpu();
    let img = &render(&gpu, "gpu_smoke/ld.case")[0];
    assert_eq!(img.get(0, 0), [1.0, 2.0, 3.0, 4.0]);
    assert_eq!(img.get(1, 0), [5.0, 6.0, 7.0, 8.0]);
    assert_eq!(img.get(0, 1), [9.0, 10.0, 11.0, 12.0]);
    assert_eq!(img.get(1, 1), [0.5, -0.25, 1e10, f32::INFINITY]);
}

#[test]
fn sample_c_lz_filters_the_comparison_results() {
    let gpu = gpu();
    let img = &render(&gpu, "gpu_smoke/pcf.case")[0];
    let row = [0.0, 0.0, 0.0, 0.25, 0.75, 1.0, 1.0, 1.0];
    for y in 0..2 {
        for (x, want) in row.iter().enumerate() {
            let got = img.get(x as u32, y);
            // The filter weights come from interpolated coordinates; allow
            // the GPU's sub-texel precision (8 bits) and no more.
            assert!(
                close(got, [*want; 4], 1.0 / 256.0),
                "pixel ({x}, {y}): {got:?} vs {want}"
            );
        }
    }
}

#[test]
fn gather4_returns_the_footprint_in_d3d_order() {
    let gpu = gpu();
    let img = &render(&gpu, "gpu_smoke/gather.case")[0];
    let t = |x: u32, y: u32| (4 * y.min(3) + x.min(3)) as f32;
    for j in 0..4 {
        for i in 0..4 {
            let want = [t(i, j + 1), t(i + 1, j + 1), t(i + 1, j), t(i, j)];
            assert_eq!(img.get(i, j), want, "pixel ({i}, {j})");
        }
    }
}

#[test]
fn shadow_pcf_edge_case_meets_its_probes() {
    let gpu = gpu();
    let case = Case::load(&case_path("shadow_pcf_edge.case")).expect("case parses");
    let img = &render(&gpu, "shadow_pcf_edge.case")[0];
    let tol = case.tolerance.abs.max(1e-6);
    for p in &case.probes {
        let [x0, y0, w, h] = p.rect;
        for y in y0..y0 + h {
            for x in x0..x0 + w {
                let got = img.get(x, y);
                assert!(
                    close(got, p.expected, tol),
                    "line {}: pixel ({x}, {y}) {got:?} vs {:?}",
                    p.line,
                    p.expected
                );
            }
        }
    }
}

/// D3D11's shader-resource slots: `t0`..`t127`.
const VIEWS: u32 = 128;

/// A pixel shader summing the first word of a raw view in each of the
/// 128 slots; view k holds k + 1, so the sum is 128 * 129 / 2 = 8256,
/// written as a uint (read back as 8256.0).
fn all_slots_case() -> String {
    let mut s =
        String::from("[pixel shader]\nps_5_0\ndcl_output o0.xyzw\n.semantic o0 SV_Target 0 uint\n");
    for k in 0..VIEWS {
        s += &format!("dcl_resource_raw t{k}\n");
    }
    s += "dcl_temps 2\nmov r0.x, l(0)\n";
    for k in 0..VIEWS {
        s += &format!("ld_raw r1.x, l(0), t{k}.xxxx\niadd r0.x, r0.x, r1.x\n");
    }
    s += "mov o0.x, r0.x\nmov o0.yzw, l(0, 0, 0, 1)\nret\n";
    for k in 0..VIEWS {
        s += &format!("\n[buffer {k}]\nraw\ndata uint {}\n", k + 1);
    }
    s += "\n[render target]\nsize 2 2\n\n[test]\nprobe rect 0 0 2 2 8256 0 0 1\n";
    s
}

#[test]
fn more_storage_buffers_than_the_adapter_binds_are_refused_by_name() {
    let gpu = gpu();
    let case = Case::parse(&all_slots_case(), Path::new("all_slots.case")).expect("case parses");
    let results = suite::run_parsed(
        vec![(case, "all_slots".into())],
        &[&gpu],
        &RunOptions::default(),
        &(),
    );
    let r = &results[0];
    let b = &r.backends[0];
    match &b.not_applicable {
        // lavapipe allows 32 storage buffers per stage: the case is not
        // applicable, the limit and both counts named, and nothing failed.
        Some(why) => {
            let head = format!(
                "exceeds max_storage_buffers_per_shader_stage (binds {VIEWS}, the adapter allows "
            );
            let allowed: u32 = why
                .strip_prefix(&head)
                .and_then(|rest| rest.split_once(')'))
                .and_then(|(n, _)| n.parse().ok())
                .unwrap_or_else(|| panic!("not the storage-buffer limit: {why}"));
            assert!(allowed < VIEWS, "{why}");
            assert!(why.contains(&gpu.adapter_name()), "{why}");
            assert!(r.passed(), "{:?}", r.failures);
            assert!(b.targets.is_empty(), "a refused case was drawn");
        }
        // An adapter that binds all 128 draws the sum.
        None => assert!(r.passed(), "{:?}", r.failures),
    }
}
