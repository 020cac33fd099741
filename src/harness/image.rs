//! A rendered image: RGBA float texels, row-major from the top-left, the
//! layout both renderers write and the diff, goldens and reports read.

#[derive(Debug, Clone, PartialEq)]
pub struct Image {
    pub width: u32,
    pub height: u32,
    /// `width * height` texels, row by row from the top.
    pub pixels: Vec<[f32; 4]>,
}

impl Image {
    /// A black (all-zero) image.
    pub fn new(width: u32, height: u32) -> Image {
        Image {
            width,
            height,
            pixels: vec![[0.0; 4]; width as usize * height as usize],
        }
    }

    pub fn get(&self, x: u32, y: u32) -> [f32; 4] {
        self.pixels[(y * self.width + x) as usize]
    }

    pub fn set(&mut self, x: u32, y: u32, v: [f32; 4]) {
        let i = (y * self.width + x) as usize;
        self.pixels[i] = v;
    }
}
