//! Class interfaces (SM5 dynamic linkage): what an application binds per
//! interface slot, and how `fcall` finds the function body through it.
//!
//! The bytecode lists, per interface (`dcl_interface fpN[array][calls] =
//! {ft…}`), the function tables a class bound to it may use, and per table
//! (`dcl_function_table ftN = {fb…}`) one body per call site. Which table
//! each slot uses, and the instance data `this[slot]` reads, are set from
//! outside the shader (`*SetShader` with class instances). [`Bindings`] is
//! that state, the one contract the emulator and the translation's uniform
//! block (`hlslcc_interfaceTable` / `hlslcc_this`, see `glsl::interfaces`)
//! are both filled from. The declarations themselves are the analysis
//! pass's [`Linkage`], which the emitter reads too.

use std::collections::BTreeMap;

use crate::dxbc::analysis::Linkage;

/// One slot's bound class instance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ClassBinding {
    /// The position, in the slot's `dcl_interface` table list, of the
    /// bound class's function table (what `hlslcc_interfaceTable[slot].x`
    /// holds).
    pub table: u32,
    /// `this[slot]`: the instance's constant buffer, its first row in it,
    /// its first texture and its first sampler (D3D11's instance data;
    /// fxc's code indexes `cb[x][y + …]`, `t[z + …]`, `s[w + …]` by them).
    pub this: [u32; 4],
}

/// The class bound to every interface slot. A slot nobody binds has table
/// position 0 and zero instance data: the first class the interface
/// lists, its data at row 0 of cb0, what the GPU paths' zero-filled block
/// holds as well.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Bindings {
    slots: BTreeMap<u32, ClassBinding>,
}

impl Bindings {
    pub fn get(&self, slot: u32) -> ClassBinding {
        self.slots.get(&slot).copied().unwrap_or_default()
    }

    pub fn set(&mut self, slot: u32, binding: ClassBinding) {
        self.slots.insert(slot, binding);
    }

    /// Slot `slot`'s binding, for changing one part of it.
    pub fn entry(&mut self, slot: u32) -> &mut ClassBinding {
        self.slots.entry(slot).or_default()
    }

    /// The slots set explicitly, in order.
    pub fn iter(&self) -> impl Iterator<Item = (u32, ClassBinding)> + '_ {
        self.slots.iter().map(|(s, b)| (*s, *b))
    }
}

/// Why an `fcall` has nowhere to go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CallError {
    /// `fp` is not declared by any `dcl_interface`.
    Undeclared { fp: u32 },
    /// `fp + index` is past the interface's array (D3D: undefined).
    OutOfRange { fp: u32, index: u32, length: u32 },
    /// The slot is bound to a table position the interface does not list.
    Unbound {
        slot: u32,
        table: u32,
        listed: usize,
    },
    /// The table has no body for this call site, or the body no label.
    NoBody { table: u32, site: u32 },
}

impl std::fmt::Display for CallError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CallError::Undeclared { fp } => write!(f, "fp{fp} has no `dcl_interface`"),
            CallError::OutOfRange { fp, index, length } => write!(
                f,
                "fp{fp}[{index}] is past the interface's {length} slots (undefined in D3D11)"
            ),
            CallError::Unbound {
                slot,
                table,
                listed,
            } => write!(
                f,
                "interface slot {slot} is bound to table {table}, but its `dcl_interface` \
                 lists {listed} table(s)"
            ),
            CallError::NoBody { table, site } => {
                write!(f, "ft{table} has no function body for call site {site}")
            }
        }
    }
}

/// The instruction index of the `label` that `fcall fp{fp}[index][site]`
/// runs with `bindings`, and the interface slot it resolved (`fp + index`:
/// D3D numbers an interface array's slots on from `fp`). The declarations
/// themselves were checked by the analysis pass; what is left is what the
/// bindings and the call's index choose.
pub fn resolve(
    linkage: &Linkage,
    bindings: &Bindings,
    fp: u32,
    index: u32,
    site: u32,
) -> Result<(usize, u32), CallError> {
    let interface = linkage.interface(fp).ok_or(CallError::Undeclared { fp })?;
    if index >= interface.length {
        return Err(CallError::OutOfRange {
            fp,
            index,
            length: interface.length,
        });
    }
    let slot = fp + index;
    let bound = bindings.get(slot).table;
    let table = *interface
        .tables
        .get(bound as usize)
        .ok_or(CallError::Unbound {
            slot,
            table: bound,
            listed: interface.tables.len(),
        })?;
    let no_body = CallError::NoBody { table, site };
    let body = linkage
        .table(table)
        .and_then(|b| b.get(site as usize))
        .ok_or(no_body.clone())?;
    let at = linkage.label(*body).ok_or(no_body)?;
    Ok((at, slot))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dxbc::asm::test_shader;
    use crate::dxbc::opcodes::Op;

    const SHADER: &str = "ps_5_0\n\
        dcl_function_body fb0\ndcl_function_body fb1\ndcl_function_body fb2\n\
        dcl_function_table ft0 = {fb0}\ndcl_function_table ft1 = {fb1, fb2}\n\
        dcl_interface fp0[2][1] = {ft0, ft1}\n\
        dcl_output o0.xyzw\n\
        fcall fp0[0][0]\nret\n\
        label fb0\nret\nlabel fb1\nret\nlabel fb2\nret\n";

    /// Runs `text` on a quad with `setup` (pixel lanes get `v0.x` = the
    /// lane number) and returns o0 per lane, or the error.
    fn run(text: &str, mut setup: crate::vm::Setup) -> Result<[[u32; 4]; 4], crate::vm::VmError> {
        use crate::vm::{Machine, Resources};
        let s = test_shader(text);
        for (l, v) in setup.inputs.iter_mut().enumerate() {
            *v = vec![[l as u32, 0, 0, 0]];
        }
        let mut m = Machine::new(std::rc::Rc::new(s.program), setup, Resources::default())?;
        m.run_to_end()?;
        Ok(std::array::from_fn(|l| m.state.lanes[l].outputs[0]))
    }

    const CALLS: &str = "ps_5_0\n\
        dcl_function_body fb0\ndcl_function_body fb1\n\
        dcl_function_table ft0 = {fb0}\ndcl_function_table ft1 = {fb1}\n\
        dcl_interface_dynamicindexed fp0[4][1] = {ft0, ft1}\n\
        dcl_input_ps constant v0.x\n\
        dcl_output o0.xyzw\ndcl_temps 1\n\
        INDEX\n\
        fcall fp0[r0.x + 0][0]\nret\n\
        label fb0\nmov o0.xyzw, this[1].xyzw\nret\n\
        label fb1\nmov o0.xyzw, l(7, 7, 7, 7)\nret\n";

    #[test]
    fn the_emulator_calls_the_bound_body_and_reads_this() {
        // Every lane calls through slot 1 (r0.x = 1).
        let text = CALLS.replace("INDEX", "mov r0.x, l(1)");
        let mut setup = crate::vm::Setup::empty();
        setup.interfaces.set(
            1,
            ClassBinding {
                table: 0,
                this: [3, 5, 7, 11],
            },
        );
        // Slot 1 on table 0: fb0, which copies this[1].
        assert_eq!(run(&text, setup.clone()).unwrap(), [[3, 5, 7, 11]; 4]);
        // Table 1: fb1's constant (the integer 7: no decimal point).
        setup.interfaces.entry(1).table = 1;
        assert_eq!(run(&text, setup).unwrap(), [[7; 4]; 4]);
    }

    #[test]
    fn a_call_index_that_differs_across_the_quad_stops_the_run() {
        // r0.x = the lane number: four different slots, undefined in D3D.
        let text = CALLS.replace("INDEX", "mov r0.x, v0.x");
        let e = run(&text, crate::vm::Setup::empty()).unwrap_err();
        assert!(e.to_string().contains("differs across the quad"), "{e}");
        // Past the array: fp0 has 4 slots.
        let text = CALLS.replace("INDEX", "mov r0.x, l(4)");
        let e = run(&text, crate::vm::Setup::empty()).unwrap_err();
        assert!(
            e.to_string().contains("past the interface's 4 slots"),
            "{e}"
        );
    }

    /// fxc's per-instance texture: `t[this.z + 0]`, the slot read from a
    /// register at run time.
    #[test]
    fn a_texture_index_from_this_reads_that_slot() {
        use crate::vm::texture::{Format, Texture, TextureDesc};
        use crate::vm::{Machine, Resources, Setup};
        let s = test_shader(
            "ps_5_0\n\
             dcl_resource_texture2d (uint,uint,uint,uint) t1\n\
             dcl_resource_texture2d (uint,uint,uint,uint) t2\n\
             dcl_function_body fb0\ndcl_function_table ft0 = {fb0}\n\
             dcl_interface fp0[1][1] = {ft0}\n\
             dcl_output o0.xyzw\ndcl_temps 1\n\
             fcall fp0[0][0]\nret\n\
             label fb0\nmov r0.x, this[0].z\n\
             ld_indexable(texture2d)(uint,uint,uint,uint) o0.xyzw, l(0, 0, 0, 0), t[r0.x + 0].xyzw\n\
             ret\n",
        );
        let texel = |v: u32| {
            Texture::from_lanes(TextureDesc::tex2d(Format::R32Uint, 1, 1), &[[v, 0, 0, 0]]).ok()
        };
        let resources = std::rc::Rc::new(Resources {
            textures: vec![None, texel(11), texel(22)],
            samplers: Vec::new(),
            buffers: Vec::new(),
        });
        let program = std::rc::Rc::new(s.program);
        let run = |z: u32| {
            let mut setup = Setup::empty();
            setup.interfaces.entry(0).this = [0, 0, z, 0];
            let mut m = Machine::new(program.clone(), setup, resources.clone()).unwrap();
            m.run_to_end().unwrap();
            m.state.lanes[0].outputs[0][0]
        };
        assert_eq!((run(1), run(2)), (11, 22));
        // t3 is bound to nothing: zeros, as D3D reads an unbound slot.
        assert_eq!(run(3), 0);
    }

    /// D3D11 stacks 32 return addresses; a call made with the stack full
    /// is skipped. A body that calls itself through its interface runs 32
    /// times (one call from the shader, 31 nested), then the 33rd call is
    /// skipped and every level returns.
    #[test]
    fn calls_past_the_nesting_limit_are_skipped() {
        let text = "ps_5_0\n\
            dcl_function_body fb0\ndcl_function_table ft0 = {fb0}\n\
            dcl_interface fp0[1][1] = {ft0}\n\
            dcl_output o0.xyzw\ndcl_temps 1\n\
            mov r0.x, l(0)\nfcall fp0[0][0]\nmov o0.xyzw, r0.xxxx\nret\n\
            label fb0\niadd r0.x, r0.x, l(1)\nfcall fp0[0][0]\nret\n";
        assert_eq!(run(text, crate::vm::Setup::empty()).unwrap(), [[32; 4]; 4]);
    }

    #[test]
    fn a_call_goes_through_the_slot_s_table() {
        let s = test_shader(SHADER);
        let l = Linkage::of(&s.program).expect("declarations check");
        let label = |id: u32| {
            s.program
                .instructions
                .iter()
                .position(|i| {
                    i.op == Op::Label && i.operands.first().and_then(|o| o.reg()) == Some(id)
                })
                .unwrap()
        };
        let mut b = Bindings::default();
        // Unbound: the first table the interface lists.
        assert_eq!(resolve(&l, &b, 0, 0, 0), Ok((label(0), 0)));
        b.set(
            1,
            ClassBinding {
                table: 1,
                this: [0; 4],
            },
        );
        assert_eq!(resolve(&l, &b, 0, 1, 0), Ok((label(1), 1)));
        assert_eq!(resolve(&l, &b, 0, 1, 1), Ok((label(2), 1)));
        // ft0 has one body only; fp0 has two slots; table 2 is not listed.
        assert_eq!(
            resolve(&l, &b, 0, 0, 1),
            Err(CallError::NoBody { table: 0, site: 1 })
        );
        assert!(matches!(
            resolve(&l, &b, 0, 2, 0),
            Err(CallError::OutOfRange { .. })
        ));
        b.entry(0).table = 2;
        assert!(matches!(
            resolve(&l, &b, 0, 0, 0),
            Err(CallError::Unbound { listed: 2, .. })
        ));
        assert!(matches!(
            resolve(&l, &b, 3, 0, 0),
            Err(CallError::Undeclared { fp: 3 })
        ));
    }
}
