//! Shader resource views: a texture as the shader sees it when the SRV
//! differs from its resource (D3D11_SHADER_RESOURCE_VIEW_DESC): a mip
//! range, an array-layer range, another dimension of the same texels (a 2D
//! view of one layer of a 2D array, a 2D array view of a cube's faces), or
//! another format of the resource's typeless group.
//!
//! A view shares the resource's decoded store; only the window into it
//! differs. Everything the texture unit does reads the view: `resinfo`
//! reports the view's mip count and the size of its most-detailed mip, mip
//! 0 is the view's first mip, layer indices are relative to the view's
//! first layer (and clamp to its layer count), LODs clamp to its mips. A
//! format view re-decodes each texel's bytes in the view's format when it
//! is read (r32_float texels read as r32_uint give their bits); a format
//! view of a block-compressed resource decodes the blocks again in the
//! view's format, into a store of its own.

use thiserror::Error;

use super::desc::{Dimension, TextureDesc};
use super::format::Format;
use super::texture::{Texture, level_extent};

/// What a view selects. Layers count the resource's 2D layers (a cube's
/// faces, six per cube), as D3D's `First2DArrayFace` and Vulkan's
/// `baseArrayLayer` do; a cube view takes 6 of them, a cube-array view a
/// multiple of 6.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct View {
    pub dimension: Dimension,
    pub format: Format,
    pub first_mip: u32,
    pub mip_count: u32,
    pub first_layer: u32,
    pub layer_count: u32,
}

/// Where a view sits in its resource (kept by the view's [`Texture`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Window {
    pub resource: TextureDesc,
    pub resource_layers: u32,
    pub first_mip: u32,
    pub first_layer: u32,
}

impl Window {
    /// A stored texel's lanes read through another format of the typeless
    /// group: the resource format's bytes decoded as the view's format.
    pub fn reinterpret(&self, view: Format, lanes: [u32; 4]) -> [u32; 4] {
        let mut bytes = [0u8; 16];
        let n = self.resource.format.bytes_per_texel().min(16);
        self.resource.format.encode_lanes(lanes, &mut bytes[..n]);
        view.decode(&bytes[..n])
    }
}

/// Why a view does not fit its resource.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ViewError {
    #[error("a {view:?} view cannot be made of a {resource:?} resource")]
    Dimension {
        resource: Dimension,
        view: Dimension,
    },
    #[error(
        "mips {first} {count} are outside the resource's {mips} mip level(s) \
         (first + count must be at most {mips}, count at least 1)"
    )]
    Mips { first: u32, count: u32, mips: u32 },
    #[error(
        "layers {first} {count} are outside the resource's {layers} layer(s) \
         (first + count must be at most {layers}, count at least 1)"
    )]
    Layers { first: u32, count: u32, layers: u32 },
    #[error("a {view:?} view takes {need}, not {count} layer(s)")]
    LayerCount {
        view: Dimension,
        count: u32,
        need: &'static str,
    },
    #[error(
        "format {view} is not in {resource}'s typeless group ({family}); a view may \
         only reinterpret the same bytes"
    )]
    Format {
        resource: &'static str,
        view: &'static str,
        family: &'static str,
    },
    #[error("the resource's blocks do not decode in the view's format: {0}")]
    Blocks(String),
}

/// The view dimensions D3D11 allows over a resource of `resource`'s
/// dimension (cube views need a cube resource: D3D's TEXTURECUBE flag).
fn dimension_allowed(resource: Dimension, view: Dimension) -> bool {
    use Dimension::*;
    match resource {
        Tex1D | Tex1DArray => matches!(view, Tex1D | Tex1DArray),
        Tex2D | Tex2DArray => matches!(view, Tex2D | Tex2DArray),
        Cube | CubeArray => matches!(view, Tex2D | Tex2DArray | Cube | CubeArray),
        Tex2DMS | Tex2DMSArray => matches!(view, Tex2DMS | Tex2DMSArray),
        Tex3D => view == Tex3D,
        Buffer => false,
    }
}

impl View {
    /// The view that shows the whole of `tex` as it is.
    pub fn whole(tex: &Texture) -> View {
        View {
            dimension: tex.dimension(),
            format: tex.format(),
            first_mip: 0,
            mip_count: tex.mip_levels(),
            first_layer: 0,
            layer_count: tex.layers(),
        }
    }
}

impl Texture {
    /// The texture as a shader sees it through `view`, sharing the store.
    /// `self` is taken as the resource (a view of a view is a view of the
    /// same resource). Errors say which part of the view does not fit.
    pub fn with_view(&self, view: View) -> Result<Texture, ViewError> {
        let res = self.resource();
        let rd = *res.desc();
        if !dimension_allowed(rd.dimension, view.dimension) {
            return Err(ViewError::Dimension {
                resource: rd.dimension,
                view: view.dimension,
            });
        }
        let mips = rd.mip_levels;
        if view.mip_count == 0 || view.first_mip >= mips || view.mip_count > mips - view.first_mip {
            return Err(ViewError::Mips {
                first: view.first_mip,
                count: view.mip_count,
                mips,
            });
        }
        let layers = res.layers();
        if view.layer_count == 0
            || view.first_layer >= layers
            || view.layer_count > layers - view.first_layer
        {
            return Err(ViewError::Layers {
                first: view.first_layer,
                count: view.layer_count,
                layers,
            });
        }
        use Dimension::*;
        let need = match view.dimension {
            Tex1D | Tex2D | Tex2DMS | Tex3D if view.layer_count != 1 => Some("exactly 1"),
            Cube if view.layer_count != 6 => Some("exactly 6 (one cube's faces)"),
            CubeArray if !view.layer_count.is_multiple_of(6) => Some("a multiple of 6"),
            _ => None,
        };
        if let Some(need) = need {
            return Err(ViewError::LayerCount {
                view: view.dimension,
                count: view.layer_count,
                need,
            });
        }
        if view.format.typeless_family() != rd.format.typeless_family() {
            return Err(ViewError::Format {
                resource: rd.format.name(),
                view: view.format.name(),
                family: rd.format.typeless_family(),
            });
        }
        let [width, height, depth] = level_extent(&rd, view.first_mip);
        let desc = TextureDesc {
            dimension: view.dimension,
            format: view.format,
            width,
            height,
            depth,
            array_size: if view.dimension.is_cube() {
                view.layer_count / 6
            } else {
                view.layer_count
            },
            mip_levels: view.mip_count,
            sample_count: rd.sample_count,
        };
        // A block resource read as another format of its group (BC1 as
        // BC1_UNORM_SRGB, BC4 UNORM as SNORM) is not its decoded texels
        // re-encoded: the blocks themselves decode differently (the sRGB
        // curve applies to the interpolated values, SNORM endpoints are
        // signed). Such a view gets its own store, the blocks decoded in
        // the view's format.
        let texels = match &res.blocks {
            Some(blocks) if view.format != rd.format => {
                let redecoded = TextureDesc {
                    format: view.format,
                    ..rd
                };
                Texture::from_bytes(redecoded, blocks)
                    .map_err(|e| ViewError::Blocks(e.to_string()))?
                    .texels
            }
            _ => res.texels.clone(),
        };
        Ok(Texture {
            desc,
            layers: view.layer_count,
            texels,
            blocks: res.blocks.clone(),
            level_offsets: res.level_offsets,
            layer_stride: res.layer_stride,
            window: (view != View::whole(&res)).then_some(Window {
                resource: rd,
                resource_layers: layers,
                first_mip: view.first_mip,
                first_layer: view.first_layer,
            }),
        })
    }

    /// The whole resource under a view (itself when it is not a view).
    pub fn resource(&self) -> Texture {
        if let (Some(w), Some(blocks)) = (self.window, &self.blocks)
            && w.resource.format != self.desc.format
        {
            // The view's store holds the blocks decoded in the view's
            // format; the resource's decoding is made again from the same
            // blocks (which decoded as the resource before, so cannot fail
            // now; were it to, the view's texels stand in below).
            if let Ok(res) = Texture::from_bytes(w.resource, blocks) {
                return res;
            }
        }
        let mut res = self.clone();
        if let Some(w) = self.window {
            res.desc = w.resource;
            res.layers = w.resource_layers;
            res.window = None;
        }
        res
    }

    /// What the view selects, `None` for a whole resource.
    pub fn view(&self) -> Option<View> {
        self.window.map(|w| View {
            dimension: self.desc.dimension,
            format: self.desc.format,
            first_mip: w.first_mip,
            mip_count: self.desc.mip_levels,
            first_layer: w.first_layer,
            layer_count: self.layers,
        })
    }

    /// A standalone copy of what the view shows (the view's shape, format
    /// and texels, mip 0 its first mip), for a renderer that cannot make
    /// the view itself.
    pub fn materialize(&self) -> Texture {
        if self.window.is_none() {
            return self.clone();
        }
        let mut store = Vec::with_capacity(self.layer_stride_visible() * self.layers as usize);
        for layer in 0..self.layers {
            for level in 0..self.desc.mip_levels {
                let [w, h, d] = self.level_size(level).unwrap_or([1, 1, 1]);
                for z in 0..d {
                    for y in 0..h {
                        for x in 0..w {
                            for s in 0..self.desc.sample_count {
                                store
                                    .push(self.texel(layer, level, [x, y, z], s).unwrap_or([0; 4]));
                            }
                        }
                    }
                }
            }
        }
        let mut desc = self.desc;
        if desc.dimension.is_cube() {
            desc.array_size = self.layers / 6;
        }
        if desc.format.is_block_compressed() {
            // The lanes are already decoded, and blocks cannot be made
            // from texels: the copy holds the lanes alone.
            if let Ok(mut t) = Texture::with_shape(desc) {
                t.texels = std::sync::Arc::new(store);
                return t;
            }
            return self.clone();
        }
        Texture::from_lanes(desc, &store).unwrap_or_else(|_| self.clone())
    }

    fn layer_stride_visible(&self) -> usize {
        (0..self.desc.mip_levels)
            .map(|l| {
                let [w, h, d] = self.level_size(l).unwrap_or([1, 1, 1]);
                w as usize * h as usize * d as usize * self.desc.sample_count as usize
            })
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vm::texture::{
        ResInfoReturn, Sampler, ld, resinfo, sample, {Lod, TextureDesc},
    };

    /// A 4x4 2D array of 3 layers with the full chain (3 levels); texel
    /// red = 100·layer + 10·level + x.
    fn array() -> Texture {
        let desc = TextureDesc::tex2d_array(Format::R32Float, 4, 4, 3).with_mips(0);
        let mut t = Vec::new();
        for layer in 0..3 {
            for (level, n) in [4u32, 2, 1].into_iter().enumerate() {
                for _y in 0..n {
                    for x in 0..n {
                        t.push([(100 * layer + 10 * level as u32 + x) as f32, 0.0, 0.0, 1.0]);
                    }
                }
            }
        }
        Texture::from_f32(desc, &t).unwrap()
    }

    fn red(l: [u32; 4]) -> f32 {
        f32::from_bits(l[0])
    }

    #[test]
    fn mip_and_layer_windows_shift_indices() {
        let t = array();
        let v = t
            .with_view(View {
                first_mip: 1,
                mip_count: 2,
                first_layer: 1,
                layer_count: 2,
                ..View::whole(&t)
            })
            .unwrap();
        // resinfo: size of the view's first mip (2x2), 2 layers, 2 mips.
        assert_eq!(resinfo(&v, 0, ResInfoReturn::Uint), [2, 2, 2, 2]);
        assert_eq!(resinfo(&v, 2, ResInfoReturn::Uint), [0, 0, 0, 2]);
        // ld at view mip 0, layer 0 = resource mip 1, layer 1.
        assert_eq!(red(ld(&v, [1, 0, 0, 0], [0; 3])), 111.0);
        assert_eq!(red(ld(&v, [0, 0, 1, 1], [0; 3])), 220.0);
        // Sampling clamps the array index to the view's layers (7 → view
        // layer 1 = resource layer 2) and the LOD to its mips.
        let s = Sampler::point();
        assert_eq!(
            red(sample(
                &v,
                &s,
                [0.1, 0.1, 7.0, 0.0],
                [0; 3],
                Lod::Explicit(9.0)
            )),
            220.0
        );
        assert_eq!(v.view().unwrap().first_layer, 1);
        assert_eq!(v.resource(), t);
        // The materialized copy reads the same.
        let m = v.materialize();
        assert_eq!(m.view(), None);
        assert_eq!(red(ld(&m, [1, 0, 0, 0], [0; 3])), 111.0);
        assert_eq!(m.layers(), 2);
    }

    #[test]
    fn a_2d_view_of_one_layer_and_a_format_view() {
        let t = array();
        let v = t
            .with_view(View {
                dimension: Dimension::Tex2D,
                first_layer: 2,
                layer_count: 1,
                ..View::whole(&t)
            })
            .unwrap();
        assert_eq!(resinfo(&v, 0, ResInfoReturn::Uint), [4, 4, 0, 3]);
        assert_eq!(red(ld(&v, [3, 0, 0, 0], [0; 3])), 203.0);
        let u = t
            .with_view(View {
                format: Format::R32Uint,
                ..View::whole(&t)
            })
            .unwrap();
        // The texel's float bits, read as an integer.
        assert_eq!(ld(&u, [1, 0, 0, 0], [0; 3])[0], 1.0f32.to_bits());
        assert_eq!(u.to_bytes(), t.to_bytes());
    }

    #[test]
    fn a_format_view_of_blocks_decodes_them_in_its_format() {
        // One BC1 block: colour0 white (0xFFFF), colour1 black, four-colour
        // mode; row 0's indices 0, 1, 2, 3. Index 2 is 2/3 white: stored
        // 170/255, which BC1_UNORM_SRGB decodes as
        // ((170/255 + 0.055) / 1.055)^2.4 = 0.401978.
        let block = [0xff, 0xff, 0x00, 0x00, 0xe4, 0x00, 0x00, 0x00];
        let t = Texture::from_bytes(TextureDesc::tex2d(Format::Bc1Unorm, 4, 4), &block).unwrap();
        let v = t
            .with_view(View {
                format: Format::Bc1UnormSrgb,
                ..View::whole(&t)
            })
            .unwrap();
        assert_eq!(red(ld(&t, [2, 0, 0, 0], [0; 3])), 170.0 / 255.0);
        assert!((red(ld(&v, [2, 0, 0, 0], [0; 3])) - 0.401978).abs() < 1e-5);
        // The view's resource is the BC1_UNORM texture, its blocks intact.
        assert_eq!(v.resource(), t);
        assert_eq!(v.to_bytes(), block);
        // And a view back to the resource's own format reads it as it is.
        let back = v
            .resource()
            .with_view(View {
                format: Format::Bc1Unorm,
                ..View::whole(&t)
            })
            .unwrap();
        assert_eq!(red(ld(&back, [2, 0, 0, 0], [0; 3])), 170.0 / 255.0);
        // BC4: red0 = 0xFF, red1 = 0x00, every index 0 (red0). UNORM reads
        // 255/255 = 1; an SNORM view reads the byte as the signed -1,
        // -1/127.
        let block = [0xff, 0x00, 0, 0, 0, 0, 0, 0];
        let t = Texture::from_bytes(TextureDesc::tex2d(Format::Bc4Unorm, 4, 4), &block).unwrap();
        let v = t
            .with_view(View {
                format: Format::Bc4Snorm,
                ..View::whole(&t)
            })
            .unwrap();
        assert_eq!(red(ld(&t, [0, 0, 0, 0], [0; 3])), 1.0);
        assert_eq!(red(ld(&v, [0, 0, 0, 0], [0; 3])), -1.0 / 127.0);
    }

    #[test]
    fn views_outside_the_resource_are_errors() {
        let t = array();
        let w = View::whole(&t);
        let bad = [
            View {
                first_mip: 3,
                mip_count: 1,
                ..w
            },
            View {
                first_mip: 1,
                mip_count: 3,
                ..w
            },
            View { mip_count: 0, ..w },
            View {
                first_layer: 2,
                layer_count: 2,
                ..w
            },
            View {
                dimension: Dimension::Tex2D,
                ..w
            },
            View {
                dimension: Dimension::Cube,
                layer_count: 3,
                ..w
            },
            View {
                dimension: Dimension::Tex3D,
                layer_count: 1,
                ..w
            },
            View {
                format: Format::Rgba8Unorm,
                ..w
            },
        ];
        for v in bad {
            assert!(t.with_view(v).is_err(), "{v:?}");
        }
    }
}
