// The page the WebGL2 backend loads in headless Chromium, from the
// harness's loopback server. It greets the server with what the context
// offers, then takes one instruction at a time (a scene to draw, or
// shaders to compile and link) as the answer to its last post, and posts
// each scene's results as one binary body: a little-endian length, that
// many bytes of JSON, then the pixels the JSON lists (docs/harness.md,
// "WebGL2 transport"). It does only what an application using the
// translation would do: upload textures, create sampler objects from the
// hardware sampler state the harness computed, fill uniform blocks at the
// offsets GL reports, set the documented uniforms, draw, read back.
"use strict";

function b64bytes(s) {
  const bin = atob(s);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

// Whether the context is gone. A GPU process that dies (a draw ANGLE gives
// up on, a crash) is not always flagged by isContextLost() while this
// script runs — the loss is delivered as an event, and events wait for the
// script to end — but from then on every call answers as on a lost
// context: a shader reports a failed compile with an empty log and
// readPixels leaves its array as it was. A trivial shader that does not
// compile is therefore the sign, checked after every scene.
function contextLost(gl) {
  if (gl.isContextLost()) return true;
  const sh = gl.createShader(gl.VERTEX_SHADER);
  if (!sh) return true;
  gl.shaderSource(sh, "#version 300 es\nvoid main() { gl_Position = vec4(0.0); }\n");
  gl.compileShader(sh);
  const ok = gl.getShaderParameter(sh, gl.COMPILE_STATUS);
  gl.deleteShader(sh);
  return !ok;
}

// What an empty info log means: a lost context gives none.
function noLog(gl) {
  return contextLost(gl) ? "(no log: the WebGL2 context was lost)" : "(no log)";
}

function compile(gl, type, source) {
  const sh = gl.createShader(type);
  gl.shaderSource(sh, source);
  gl.compileShader(sh);
  if (!gl.getShaderParameter(sh, gl.COMPILE_STATUS)) {
    const log = gl.getShaderInfoLog(sh) || noLog(gl);
    gl.deleteShader(sh);
    throw new Error((type === gl.VERTEX_SHADER ? "vertex" : "pixel") +
      " shader does not compile: " + log.trim());
  }
  return sh;
}

function link(gl, vs, fs) {
  const p = gl.createProgram();
  gl.attachShader(p, vs);
  gl.attachShader(p, fs);
  gl.linkProgram(p);
  if (!gl.getProgramParameter(p, gl.LINK_STATUS)) {
    const log = gl.getProgramInfoLog(p) || noLog(gl);
    gl.deleteProgram(p);
    throw new Error("the program does not link: " + log.trim());
  }
  return p;
}

function glEnum(gl, name) {
  const v = gl[name];
  if (v === undefined) throw new Error("unknown GL name " + name);
  return v;
}

function typedData(type, u8) {
  // Copies, so the view is aligned whatever the source offset.
  const buf = u8.slice().buffer;
  switch (type) {
    case "FLOAT": return new Float32Array(buf);
    case "HALF_FLOAT": case "UNSIGNED_SHORT": return new Uint16Array(buf);
    case "SHORT": return new Int16Array(buf);
    case "BYTE": return new Int8Array(buf);
    case "UNSIGNED_INT": case "UNSIGNED_INT_2_10_10_10_REV":
    case "UNSIGNED_INT_10F_11F_11F_REV": case "UNSIGNED_INT_5_9_9_9_REV":
      return new Uint32Array(buf);
    case "INT": return new Int32Array(buf);
    default: return new Uint8Array(buf);
  }
}

function check(gl, what) {
  const err = gl.getError();
  if (err !== gl.NO_ERROR) throw new Error("GL error 0x" + err.toString(16) + " " + what);
}

// A block-compressed texture's blocks, when the browser has every
// extension its format needs: compressedTexImage per level (all layers of
// a level at once, cube faces one by one). Returns false, having uploaded
// nothing, when an extension is missing.
function makeCompressed(gl, target, c) {
  if (!c.extensions.every((e) => gl.getExtension(e))) return false;
  for (const img of c.images) {
    const data = b64bytes(img.data);
    if (target === gl.TEXTURE_2D_ARRAY) {
      gl.compressedTexImage3D(target, img.level, c.internal, img.width, img.height, img.depth,
        0, data);
    } else {
      const face = target === gl.TEXTURE_CUBE_MAP
        ? gl.TEXTURE_CUBE_MAP_POSITIVE_X + img.face : target;
      gl.compressedTexImage2D(face, img.level, c.internal, img.width, img.height, 0, data);
    }
  }
  return true;
}

function makeTexture(gl, t, notes) {
  const tex = gl.createTexture();
  const target = glEnum(gl, t.target);
  gl.bindTexture(target, tex);
  if (t.compressed) {
    const c = t.compressed;
    if (makeCompressed(gl, target, c)) {
      notes.push(c.label + " uploaded compressed (" + c.extensions.join(", ") + ")");
      gl.texParameteri(target, gl.TEXTURE_BASE_LEVEL, 0);
      gl.texParameteri(target, gl.TEXTURE_MAX_LEVEL, t.levels - 1);
      return { tex, target };
    }
    notes.push(c.label + " uploaded decoded (RGBA32F): the browser lacks " +
      c.extensions.join(" or "));
  }
  const internal = glEnum(gl, t.internal);
  const format = glEnum(gl, t.format);
  const type = glEnum(gl, t.type);
  for (const img of t.images) {
    const data = typedData(t.type, b64bytes(img.data));
    if (t.target === "TEXTURE_2D_ARRAY" || t.target === "TEXTURE_3D") {
      gl.texImage3D(target, img.level, internal, img.width, img.height, img.depth, 0,
        format, type, data);
    } else {
      const face = t.target === "TEXTURE_CUBE_MAP"
        ? gl.TEXTURE_CUBE_MAP_POSITIVE_X + img.face : target;
      gl.texImage2D(face, img.level, internal, img.width, img.height, 0, format, type, data);
    }
  }
  gl.texParameteri(target, gl.TEXTURE_BASE_LEVEL, t.base_level);
  gl.texParameteri(target, gl.TEXTURE_MAX_LEVEL, t.base_level + t.levels - 1);
  return { tex, target };
}

function makeSampler(gl, s) {
  const smp = gl.createSampler();
  const wrap = [gl.TEXTURE_WRAP_S, gl.TEXTURE_WRAP_T, gl.TEXTURE_WRAP_R];
  for (let i = 0; i < 3; i++) gl.samplerParameteri(smp, wrap[i], glEnum(gl, s.wrap[i]));
  gl.samplerParameteri(smp, gl.TEXTURE_MIN_FILTER, glEnum(gl, s.min_filter));
  gl.samplerParameteri(smp, gl.TEXTURE_MAG_FILTER, glEnum(gl, s.mag_filter));
  gl.samplerParameterf(smp, gl.TEXTURE_MIN_LOD, s.min_lod);
  gl.samplerParameterf(smp, gl.TEXTURE_MAX_LOD, s.max_lod);
  if (s.max_anisotropy > 1) {
    // D3D's anisotropic filter; without the extension the draw cannot
    // express it, and says so rather than filtering trilinearly.
    const aniso = gl.getExtension("EXT_texture_filter_anisotropic");
    if (!aniso) throw new Error("anisotropic filtering needs EXT_texture_filter_anisotropic");
    gl.samplerParameterf(smp, aniso.TEXTURE_MAX_ANISOTROPY_EXT, s.max_anisotropy);
  }
  if (s.compare) {
    gl.samplerParameteri(smp, gl.TEXTURE_COMPARE_MODE, gl.COMPARE_REF_TO_TEXTURE);
    gl.samplerParameteri(smp, gl.TEXTURE_COMPARE_FUNC, glEnum(gl, s.compare));
  } else {
    gl.samplerParameteri(smp, gl.TEXTURE_COMPARE_MODE, gl.NONE);
  }
  return smp;
}

// Per GL type: how many columns (vectors) and components each has, and
// which scalar its words are read as. A D3D constant buffer keeps every
// array element and every matrix column (a register each, D3D's
// column-major packing) 16 bytes apart; GL lays them out its own way,
// which the caller reads from the program.
function glShape(gl, type) {
  const T = {};
  const add = (t, cols, comps, kind) => { if (t !== undefined) T[t] = { cols, comps, kind }; };
  add(gl.FLOAT, 1, 1, "f"); add(gl.FLOAT_VEC2, 1, 2, "f"); add(gl.FLOAT_VEC3, 1, 3, "f");
  add(gl.FLOAT_VEC4, 1, 4, "f");
  add(gl.INT, 1, 1, "i"); add(gl.INT_VEC2, 1, 2, "i"); add(gl.INT_VEC3, 1, 3, "i");
  add(gl.INT_VEC4, 1, 4, "i");
  add(gl.UNSIGNED_INT, 1, 1, "u"); add(gl.UNSIGNED_INT_VEC2, 1, 2, "u");
  add(gl.UNSIGNED_INT_VEC3, 1, 3, "u"); add(gl.UNSIGNED_INT_VEC4, 1, 4, "u");
  add(gl.BOOL, 1, 1, "i"); add(gl.BOOL_VEC2, 1, 2, "i"); add(gl.BOOL_VEC3, 1, 3, "i");
  add(gl.BOOL_VEC4, 1, 4, "i");
  add(gl.FLOAT_MAT2, 2, 2, "m"); add(gl.FLOAT_MAT3, 3, 3, "m"); add(gl.FLOAT_MAT4, 4, 4, "m");
  add(gl.FLOAT_MAT2x3, 2, 3, "m"); add(gl.FLOAT_MAT2x4, 2, 4, "m");
  add(gl.FLOAT_MAT3x2, 3, 2, "m"); add(gl.FLOAT_MAT3x4, 3, 4, "m");
  add(gl.FLOAT_MAT4x2, 4, 2, "m"); add(gl.FLOAT_MAT4x3, 4, 3, "m");
  return T[type] || null;
}

// A member's words (16 bytes a D3D register) as GL's elements: element e,
// column c at register e * cols + c, its first `comps` words. Words the
// member lacks stay 0; nothing is written past `count` elements.
function d3dElements(shape, count, words) {
  const out = new Uint32Array(count * shape.cols * shape.comps);
  let k = 0;
  for (let e = 0; e < count; e++) {
    for (let c = 0; c < shape.cols; c++) {
      const reg = (e * shape.cols + c) * 4;
      for (let i = 0; i < shape.comps; i++) {
        out[k++] = reg + i < words.length ? words[reg + i] : 0;
      }
    }
  }
  return out;
}

// Fills a uniform block's members at the offsets, array strides and
// matrix strides GL reports, each by its GL type: every element and
// column from its D3D register, never past the member or the block.
function fillBlock(gl, prog, block, binding, made) {
  const index = gl.getUniformBlockIndex(prog, block.name);
  if (index === gl.INVALID_INDEX) return;
  const size = gl.getActiveUniformBlockParameter(prog, index, gl.UNIFORM_BLOCK_DATA_SIZE);
  const indices = gl.getActiveUniformBlockParameter(prog, index,
    gl.UNIFORM_BLOCK_ACTIVE_UNIFORM_INDICES);
  const offsets = gl.getActiveUniforms(prog, indices, gl.UNIFORM_OFFSET);
  const strides = gl.getActiveUniforms(prog, indices, gl.UNIFORM_ARRAY_STRIDE);
  const mstrides = gl.getActiveUniforms(prog, indices, gl.UNIFORM_MATRIX_STRIDE);
  const types = gl.getActiveUniforms(prog, indices, gl.UNIFORM_TYPE);
  const sizes = gl.getActiveUniforms(prog, indices, gl.UNIFORM_SIZE);
  const words = new Uint32Array(Math.ceil(size / 4));
  for (let k = 0; k < indices.length; k++) {
    const full = gl.getActiveUniform(prog, indices[k]).name.replace(/\[0\]$/, "");
    const short = full.substring(full.lastIndexOf(".") + 1);
    const m = block.members.find((x) => x.name === short);
    if (!m) continue;
    const shape = glShape(gl, types[k]);
    if (!shape) throw new Error("uniform block " + block.name + " member " + short +
      " has a type the harness cannot fill (0x" + types[k].toString(16) + ")");
    const vals = d3dElements(shape, sizes[k], m.words);
    let v = 0;
    for (let e = 0; e < sizes[k]; e++) {
      for (let c = 0; c < shape.cols; c++) {
        const at = (offsets[k] + e * strides[k] + c * mstrides[k]) / 4;
        for (let i = 0; i < shape.comps; i++, v++) {
          if (at + i < words.length) words[at + i] = vals[v];
        }
      }
    }
  }
  const buf = gl.createBuffer();
  made.buffers.push(buf);
  gl.bindBuffer(gl.UNIFORM_BUFFER, buf);
  gl.bufferData(gl.UNIFORM_BUFFER, words, gl.STATIC_DRAW);
  gl.uniformBlockBinding(prog, index, binding);
  gl.bindBufferBase(gl.UNIFORM_BUFFER, binding, buf);
}

// Sets a plain uniform from its words by the type and array size GL
// reports (uniform{1..4}{f,i,ui}v, uniformMatrix*fv): element e, column c
// from D3D register e * cols + c. A uniform the program lacks (optimised
// away) is skipped.
function setUniform(gl, prog, u) {
  const count = gl.getProgramParameter(prog, gl.ACTIVE_UNIFORMS);
  for (let i = 0; i < count; i++) {
    const a = gl.getActiveUniform(prog, i);
    if (a.name.replace(/\[0\]$/, "") !== u.name) continue;
    const loc = gl.getUniformLocation(prog, a.name);
    if (loc === null) return;
    const shape = glShape(gl, a.type);
    if (!shape) throw new Error("uniform " + u.name + " has a type the harness cannot set (0x" +
      a.type.toString(16) + ")");
    const vals = d3dElements(shape, a.size, u.words);
    const f = new Float32Array(vals.buffer), s = new Int32Array(vals.buffer);
    const n = shape.comps;
    if (shape.kind === "f") gl["uniform" + n + "fv"](loc, f);
    else if (shape.kind === "i") gl["uniform" + n + "iv"](loc, s);
    else if (shape.kind === "u") gl["uniform" + n + "uiv"](loc, vals);
    else {
      const name = shape.cols === shape.comps ? "uniformMatrix" + n + "fv"
        : "uniformMatrix" + shape.cols + "x" + n + "fv";
      gl[name](loc, false, f);
    }
    return;
  }
}

// readPixels' array type for each type the scene names.
const READ_ARRAYS = {
  UNSIGNED_BYTE: Uint8Array,
  FLOAT: Float32Array,
  INT: Int32Array,
  UNSIGNED_INT: Uint32Array,
};

function drawScene(gl, sc) {
  // Every GL object the scene creates is listed here and deleted in the
  // `finally`, whatever fails: a page draws hundreds of scenes.
  const made = { textures: [], samplers: [], buffers: [], fbo: null, targets: [], prog: null,
    depth: null, shaders: [], vao: null };
  const start = performance.now();
  try {
    if (sc.capture) {
      // The capture's outputs were laid out for a number of draw buffers;
      // a context with fewer says how many it has, and the harness
      // translates for them.
      const max = Math.min(gl.getParameter(gl.MAX_DRAW_BUFFERS),
        gl.getParameter(gl.MAX_COLOR_ATTACHMENTS));
      if (max < sc.capture.outputs) {
        return { ok: false, max_draw_buffers: max, error: "the register capture needs " +
          sc.capture.outputs + " draw buffers and the context has " + max };
      }
    }
    const vs = compile(gl, gl.VERTEX_SHADER, sc.vs);
    made.shaders.push(vs);
    const fs = compile(gl, gl.FRAGMENT_SHADER, sc.fs);
    made.shaders.push(fs);
    const prog = link(gl, vs, fs);
    made.prog = prog;
    gl.useProgram(prog);

    check(gl, "compiling");
    // Render targets first: creating them binds textures, which must not
    // disturb the units the shader samples.
    const fbo = gl.createFramebuffer();
    made.fbo = fbo;
    gl.bindFramebuffer(gl.FRAMEBUFFER, fbo);
    const maxLoc = sc.targets.reduce((m, t) => Math.max(m, t.location), -1);
    const bufs = new Array(maxLoc + 1).fill(gl.NONE);
    for (const t of sc.targets) {
      const tex = gl.createTexture();
      made.targets.push(tex);
      gl.bindTexture(gl.TEXTURE_2D, tex);
      gl.texStorage2D(gl.TEXTURE_2D, 1, glEnum(gl, t.internal), sc.width, sc.height);
      gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0 + t.location,
        gl.TEXTURE_2D, tex, 0);
      bufs[t.location] = gl.COLOR_ATTACHMENT0 + t.location;
    }
    gl.drawBuffers(bufs);
    if (sc.depth) {
      // A depth texture rather than a renderbuffer, so that it can be read
      // back by sampling (readPixels reads colour only).
      const dt = gl.createTexture();
      made.depth = dt;
      gl.bindTexture(gl.TEXTURE_2D, dt);
      gl.texStorage2D(gl.TEXTURE_2D, 1, glEnum(gl, sc.depth.internal), sc.width, sc.height);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_COMPARE_MODE, gl.NONE);
      gl.framebufferTexture2D(gl.FRAMEBUFFER,
        sc.depth.stencil ? gl.DEPTH_STENCIL_ATTACHMENT : gl.DEPTH_ATTACHMENT,
        gl.TEXTURE_2D, dt, 0);
    }
    const status = gl.checkFramebufferStatus(gl.FRAMEBUFFER);
    if (maxLoc >= 0 && status !== gl.FRAMEBUFFER_COMPLETE) {
      throw new Error("render targets incomplete (status 0x" + status.toString(16) + ")");
    }
    for (const t of sc.targets) {
      if (t.kind === "float") gl.clearBufferfv(gl.COLOR, t.location, t.clear);
      else if (t.kind === "int") gl.clearBufferiv(gl.COLOR, t.location, t.clear);
      else gl.clearBufferuiv(gl.COLOR, t.location, t.clear);
    }
    if (sc.depth) {
      // Clears write whatever the depth mask says: open it first.
      gl.depthMask(true);
      if (sc.depth.stencil) gl.clearBufferfi(gl.DEPTH_STENCIL, 0, sc.depth.clear, 0);
      else gl.clearBufferfv(gl.DEPTH, 0, [sc.depth.clear]);
    }
    const notes = [];
    const textures = sc.textures.map((t) => {
      const m = makeTexture(gl, t, notes);
      made.textures.push(m.tex);
      return m;
    });
    check(gl, "uploading textures");
    sc.units.forEach((u, unit) => {
      const loc = gl.getUniformLocation(prog, u.name);
      if (loc === null) return;
      const t = textures[u.texture];
      const smp = makeSampler(gl, u.sampler);
      made.samplers.push(smp);
      gl.activeTexture(gl.TEXTURE0 + unit);
      gl.bindTexture(t.target, t.tex);
      gl.bindSampler(unit, smp);
      gl.uniform1i(loc, unit);
    });
    // Sampler uniforms the harness has nothing for (declared, not listed)
    // default to unit 0, where a texture of another type may sit, which
    // GL rejects at draw time: give each a unit of its own, left empty.
    const samplerTypes = [gl.SAMPLER_2D, gl.SAMPLER_3D, gl.SAMPLER_CUBE, gl.SAMPLER_2D_SHADOW,
      gl.SAMPLER_2D_ARRAY, gl.SAMPLER_2D_ARRAY_SHADOW, gl.SAMPLER_CUBE_SHADOW,
      gl.INT_SAMPLER_2D, gl.INT_SAMPLER_3D, gl.INT_SAMPLER_CUBE, gl.INT_SAMPLER_2D_ARRAY,
      gl.UNSIGNED_INT_SAMPLER_2D, gl.UNSIGNED_INT_SAMPLER_3D, gl.UNSIGNED_INT_SAMPLER_CUBE,
      gl.UNSIGNED_INT_SAMPLER_2D_ARRAY];
    let spare = sc.units.length;
    const count = gl.getProgramParameter(prog, gl.ACTIVE_UNIFORMS);
    for (let i = 0; i < count; i++) {
      const u = gl.getActiveUniform(prog, i);
      if (!samplerTypes.includes(u.type) || sc.units.some((x) => x.name === u.name)) continue;
      gl.uniform1i(gl.getUniformLocation(prog, u.name), spare++);
    }
    sc.blocks.forEach((b, k) => fillBlock(gl, prog, b, k, made));
    for (const u of sc.uniforms) setUniform(gl, prog, u);

    const vao = gl.createVertexArray();
    made.vao = vao;
    gl.bindVertexArray(vao);
    if (sc.attributes.length > 0) {
      const vb = gl.createBuffer();
      made.buffers.push(vb);
      gl.bindBuffer(gl.ARRAY_BUFFER, vb);
      gl.bufferData(gl.ARRAY_BUFFER, b64bytes(sc.vertices), gl.STATIC_DRAW);
      for (const a of sc.attributes) {
        const loc = gl.getAttribLocation(prog, a.name);
        if (loc < 0) continue;
        gl.enableVertexAttribArray(loc);
        gl.vertexAttribPointer(loc, a.components, gl.FLOAT, false, sc.stride, a.offset);
      }
    }
    const ib = gl.createBuffer();
    made.buffers.push(ib);
    gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, ib);
    gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, new Uint16Array(sc.indices), gl.STATIC_DRAW);

    // The documented contract for drawing into a texture: D3D's rows in
    // memory order and D3D's clockwise front face (docs/glsl.md).
    // The y-flipped draw puts D3D's row 0 first in memory, GL's row 0, so
    // D3D's viewport corner is GL's as it stands.
    gl.viewport(sc.viewport[0], sc.viewport[1], sc.viewport[2], sc.viewport[3]);
    gl.depthRange(sc.depth_range[0], sc.depth_range[1]);
    gl.disable(gl.CULL_FACE);
    // GL's disabled depth test writes no depth either, as D3D's
    // DepthEnable off.
    if (sc.depth && sc.depth.test) {
      gl.enable(gl.DEPTH_TEST);
      gl.depthFunc(glEnum(gl, sc.depth.func));
      gl.depthMask(sc.depth.write);
    } else {
      gl.disable(gl.DEPTH_TEST);
    }
    gl.disable(gl.BLEND);
    gl.frontFace(gl.CCW);
    check(gl, "before the draw");
    if (sc.capture) {
      const result = captureDraws(gl, sc, prog, made);
      result.ms = performance.now() - start;
      return result;
    }
    gl.drawElements(gl.TRIANGLES, sc.indices.length, gl.UNSIGNED_SHORT, 0);
    check(gl, "drawing");

    const out = [];
    for (const t of sc.targets) {
      const px = new READ_ARRAYS[t.read_type](sc.width * sc.height * 4);
      gl.readBuffer(gl.COLOR_ATTACHMENT0 + t.location);
      gl.readPixels(0, 0, sc.width, sc.height, glEnum(gl, t.read_format),
        glEnum(gl, t.read_type), px);
      out.push({ location: t.location, data: new Uint8Array(px.buffer) });
    }
    check(gl, "reading back");
    const result = { ok: true, ms: performance.now() - start, targets: out, notes };
    if (sc.depth && sc.depth.read) result.depth = readDepth(gl, sc, made);
    return result;
  } finally {
    gl.bindVertexArray(null);
    if (made.vao) gl.deleteVertexArray(made.vao);
    for (const sh of made.shaders) gl.deleteShader(sh);
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    for (const t of made.textures) gl.deleteTexture(t);
    for (const t of made.targets) gl.deleteTexture(t);
    for (const s of made.samplers) gl.deleteSampler(s);
    for (const b of made.buffers) gl.deleteBuffer(b);
    if (made.fbo) gl.deleteFramebuffer(made.fbo);
    if (made.depth) gl.deleteTexture(made.depth);
    gl.disable(gl.DEPTH_TEST);
    gl.disable(gl.SCISSOR_TEST);
    gl.depthMask(true);
    gl.depthRange(0, 1);
    if (made.prog) gl.deleteProgram(made.prog);
    for (let u = 0; u < 16; u++) gl.bindSampler(u, null);
  }
}

// A register capture (docs/bisect.md): the program drawn once per window
// of records, the window uniform at 0, R, 2R, …, the capture outputs read
// at the pixel after each draw until the header's count is covered. Output
// 0 is the header (count, overflow flag, the window's first record, R);
// outputs 1 + 2k and 2 + 2k hold the window's record k. Only the first
// draw's header is read at once (it gives the count, hence the draws);
// every draw's outputs go into a pixel-pack buffer read once at the end,
// so the draws are not each a round trip to the GPU process. Returns the
// words as the Vulkan capture buffer holds them: the header (count,
// overflow, 0, 0), then every record.
function captureDraws(gl, sc, prog, made) {
  const c = sc.capture;
  const loc = gl.getUniformLocation(prog, c.uniform);
  if (loc === null) throw new Error("the capture's window uniform " + c.uniform + " is not in the program");
  const draw = (first) => {
    gl.uniform1ui(loc, first);
    gl.drawElements(gl.TRIANGLES, sc.indices.length, gl.UNSIGNED_SHORT, 0);
  };
  // A header an invocation wrote echoes the window and R; one left as
  // cleared (zero) means none ran at the pixel.
  const checkHead = (head, first) => {
    if (head[3] !== c.per_draw || head[2] !== first) {
      throw new Error("pixel (" + c.x + "," + c.y + ") wrote no capture header in the draw " +
        "from record " + first + ": no invocation ran there (is the pixel covered?)");
    }
  };
  // Only the pixel's fragment writes what is read: the scissor spares
  // shading the rest of the target on each of the many draws. (Scissored
  // fragments of the pixel's 2x2 quad still run as helpers, so its
  // derivatives are those of the whole draw.)
  gl.enable(gl.SCISSOR_TEST);
  gl.scissor(c.x, c.y, 1, 1);
  draw(0);
  const head = new Uint32Array(4);
  gl.readBuffer(gl.COLOR_ATTACHMENT0);
  gl.readPixels(c.x, c.y, 1, 1, gl.RGBA_INTEGER, gl.UNSIGNED_INT, head);
  check(gl, "drawing the capture");
  checkHead(head, 0);
  const count = head[0], overflow = head[1];
  const draws = Math.max(1, Math.ceil(count / c.per_draw));
  const texel = 16;
  const pack = gl.createBuffer();
  made.buffers.push(pack);
  gl.bindBuffer(gl.PIXEL_PACK_BUFFER, pack);
  gl.bufferData(gl.PIXEL_PACK_BUFFER, draws * c.outputs * texel, gl.STREAM_READ);
  for (let d = 0; d < draws; d++) {
    if (d > 0) draw(d * c.per_draw);
    for (let k = 0; k < c.outputs; k++) {
      gl.readBuffer(gl.COLOR_ATTACHMENT0 + k);
      gl.readPixels(c.x, c.y, 1, 1, gl.RGBA_INTEGER, gl.UNSIGNED_INT,
        (d * c.outputs + k) * texel);
    }
  }
  const all = new Uint32Array(draws * c.outputs * 4);
  gl.getBufferSubData(gl.PIXEL_PACK_BUFFER, 0, all);
  gl.bindBuffer(gl.PIXEL_PACK_BUFFER, null);
  check(gl, "reading the capture back");
  const words = [count, overflow, 0, 0];
  for (let d = 0; d < draws; d++) {
    const at = d * c.outputs * 4;
    const first = d * c.per_draw;
    checkHead(all.subarray(at, at + 4), first);
    if (all[at] !== count || all[at + 1] !== overflow) {
      throw new Error("the capture's record count changed between draws: " + count +
        " in the first, " + all[at] + " in the one from record " + first);
    }
    const n = Math.min(c.per_draw, count - first);
    for (let i = 4; i < 4 + 8 * n; i++) words.push(all[at + i]);
  }
  return { ok: true, capture: new Uint8Array(Uint32Array.from(words).buffer), draws };
}

// The depth buffer read back by drawing it: a full-target triangle whose
// fragment shader texelFetches the depth texture into an R32F target, read
// with readPixels (rows stay in the draw's memory order).
function readDepth(gl, sc, made) {
  const vs = compile(gl, gl.VERTEX_SHADER, "#version 300 es\n" +
    "void main() { vec2 p = vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0);\n" +
    "  gl_Position = vec4(p, 0.0, 1.0); }\n");
  const fs = compile(gl, gl.FRAGMENT_SHADER, "#version 300 es\nprecision highp float;\n" +
    "uniform highp sampler2D depth;\nout vec4 o;\n" +
    "void main() { o = vec4(texelFetch(depth, ivec2(gl_FragCoord.xy), 0).r, 0.0, 0.0, 0.0); }\n");
  const prog = link(gl, vs, fs);
  gl.deleteShader(vs);
  gl.deleteShader(fs);
  const fbo = gl.createFramebuffer();
  const tex = gl.createTexture();
  const vao = gl.createVertexArray();
  try {
    gl.bindFramebuffer(gl.FRAMEBUFFER, fbo);
    gl.bindTexture(gl.TEXTURE_2D, tex);
    gl.texStorage2D(gl.TEXTURE_2D, 1, gl.R32F, sc.width, sc.height);
    gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, tex, 0);
    gl.drawBuffers([gl.COLOR_ATTACHMENT0]);
    gl.useProgram(prog);
    gl.activeTexture(gl.TEXTURE0);
    gl.bindTexture(gl.TEXTURE_2D, made.depth);
    gl.bindSampler(0, null);
    gl.uniform1i(gl.getUniformLocation(prog, "depth"), 0);
    gl.disable(gl.DEPTH_TEST);
    gl.viewport(0, 0, sc.width, sc.height);
    gl.bindVertexArray(vao);
    gl.drawArrays(gl.TRIANGLES, 0, 3);
    const px = new Float32Array(sc.width * sc.height * 4);
    gl.readBuffer(gl.COLOR_ATTACHMENT0);
    gl.readPixels(0, 0, sc.width, sc.height, gl.RGBA, gl.FLOAT, px);
    check(gl, "reading the depth buffer back");
    return new Uint8Array(px.buffer);
  } finally {
    gl.bindVertexArray(null);
    gl.deleteVertexArray(vao);
    gl.deleteTexture(tex);
    gl.deleteFramebuffer(fbo);
    gl.deleteProgram(prog);
  }
}

function compileCheck(gl, job) {
  const compiled = job.shaders.map((s) => {
    try {
      const type = s.stage === "vertex" ? gl.VERTEX_SHADER : gl.FRAGMENT_SHADER;
      gl.deleteShader(compile(gl, type, s.source));
      return { ok: true };
    } catch (e) {
      return { ok: false, error: String(e.message || e) };
    }
  });
  const linked = job.pairs.map((p) => {
    const made = [];
    try {
      made.push(compile(gl, gl.VERTEX_SHADER, p.vs));
      made.push(compile(gl, gl.FRAGMENT_SHADER, p.fs));
      gl.deleteProgram(link(gl, made[0], made[1]));
      return { ok: true };
    } catch (e) {
      return { ok: false, error: String(e.message || e) };
    } finally {
      for (const sh of made) gl.deleteShader(sh);
    }
  });
  return { compiled, linked };
}

// The context, and what it offers the harness.
function setup() {
  const canvas = document.createElement("canvas");
  canvas.width = 1;
  canvas.height = 1;
  const gl = canvas.getContext("webgl2", { antialias: false, preserveDrawingBuffer: false });
  if (!gl) throw new Error("no WebGL2 context");
  const info = { version: gl.getParameter(gl.VERSION) };
  const dbg = gl.getExtension("WEBGL_debug_renderer_info");
  info.renderer = dbg ? gl.getParameter(dbg.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER);
  // Float render targets and filtering of float textures: extensions an
  // application asks for the same way.
  info.color_buffer_float = !!gl.getExtension("EXT_color_buffer_float");
  info.float_linear = !!gl.getExtension("OES_texture_float_linear");
  gl.pixelStorei(gl.UNPACK_ALIGNMENT, 1);
  gl.pixelStorei(gl.PACK_ALIGNMENT, 1);
  return { gl, info };
}

// A scene's result as one body: its JSON without the pixels, which follow
// as raw bytes in the order `blobs` lists them — no base64, no JSON of
// floats, so a 640x480 RGBA32F target is its 4.9 MB and no more.
function encodeResult(r) {
  const meta = Object.assign({}, r);
  delete meta.targets;
  delete meta.depth;
  delete meta.capture;
  meta.blobs = [];
  const parts = [];
  for (const t of r.targets || []) {
    meta.blobs.push({ kind: "target", location: t.location, bytes: t.data.byteLength });
    parts.push(t.data);
  }
  for (const kind of ["depth", "capture"]) {
    if (r[kind]) {
      meta.blobs.push({ kind, bytes: r[kind].byteLength });
      parts.push(r[kind]);
    }
  }
  const json = new TextEncoder().encode(JSON.stringify(meta));
  const len = new DataView(new ArrayBuffer(4));
  len.setUint32(0, json.byteLength, true);
  return new Blob([len.buffer, json, ...parts]);
}

// Every path the server answers starts with the page's own (its token).
const BASE = location.pathname.replace(/\/page$/, "");

// Posts `body` and returns the server's answer: the next instruction.
async function post(path, body) {
  const r = await fetch(BASE + path, { method: "POST", body, cache: "no-store" });
  if (!r.ok) throw new Error(path + ": HTTP " + r.status);
  return r.json();
}

async function main() {
  let gl = null;
  let hello;
  try {
    const s = setup();
    gl = s.gl;
    hello = { info: s.info };
  } catch (e) {
    hello = { error: String(e.message || e) };
  }
  let next = await post("/hello", JSON.stringify(hello));
  while (next && !next.done) {
    const n = next.serial;
    if (next.compile) {
      next = await post("/checked/" + n, JSON.stringify(compileCheck(gl, next.compile)));
      continue;
    }
    // The watch: a request the server leaves open while the scene is
    // drawn. Its response has begun once fetch resolves, so the browser
    // holds the connection; if this page's renderer dies, the browser
    // drops it and the harness knows at once which case did it.
    await fetch(BASE + "/watch/" + n, { cache: "no-store" });
    let r;
    try {
      r = drawScene(gl, next.scene);
    } catch (e) {
      r = { ok: false, error: String(e.message || e) };
    }
    next.scene = null;
    if (contextLost(gl)) {
      // What this scene read back (zeros, or a log-less failure) is the
      // loss's doing, not the shader's; the scenes after it need a new
      // context, which the harness gets by starting a fresh browser.
      r = { ok: false, lost: true, error: "the WebGL2 context was lost while drawing " +
        "this case (" + (r.ok ? "its read-back is void" : r.error) + ")" };
    }
    next = await post("/result/" + n, encodeResult(r));
  }
}

main().catch((e) => console.error("dxbc-dbg-webgl2: " + String(e.message || e)));
