//! Class interfaces (SM5 dynamic linkage) as a program declares them, read
//! once for the emulator (which resolves each `fcall` through it), the
//! emitter (its `switch`es and uniform block) and the harness (a case's
//! `[interfaces]` lines):
//!
//! * `dcl_function_body fbN` and the `label fbN` the body starts at;
//! * `dcl_function_table ftN = {fb…}`: one body per call site;
//! * `dcl_interface fpN[array][calls] = {ft…}`: the tables a class bound to
//!   one of the interface's slots may use. An interface array takes the
//!   slots `N .. N + array` (D3D numbers them on from `fp`).
//!
//! A body, table or interface declared twice, interfaces whose slots
//! overlap, a table naming an undeclared body or one without its `label`,
//! an interface listing an undeclared table, and an `fcall` through an
//! undeclared interface are [`AnalysisError`]s naming the instruction.
//! Which table a slot is bound to is runtime state, so what a call finds
//! with it (a table position past the list, a call site past the table)
//! is the consumer's to report.

use std::collections::BTreeMap;

use super::{AnalysisError, Check};
use crate::dxbc::ir::{DeclKind, Index, OperandType, Program};
use crate::dxbc::opcodes::Op;

/// One `dcl_interface`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Interface {
    /// Slots in the array (a plain interface has one).
    pub length: u32,
    /// Call sites (`[calls]`): bodies each listed table holds.
    pub calls: u32,
    /// The function tables a bound class may use; a slot's binding is a
    /// position in this list.
    pub tables: Vec<u32>,
    /// The `dcl_interface` instruction.
    pub at: usize,
}

/// A program's interface declarations, checked.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Linkage {
    /// `fbN` → the instruction index of its `label fbN`.
    labels: BTreeMap<u32, usize>,
    /// `ftN` → its bodies, one per call site.
    tables: BTreeMap<u32, Vec<u32>>,
    /// `fpN` (its first slot) → the interface.
    interfaces: BTreeMap<u32, Interface>,
}

impl Linkage {
    pub fn of(program: &Program) -> Result<Linkage, AnalysisError> {
        let fail = |index: usize, message: String| AnalysisError {
            index,
            offset: program.instructions[index].offset,
            check: Check::Linkage,
            message,
        };
        let mut l = Linkage::default();
        // fbN → its `dcl_function_body`.
        let mut declared: BTreeMap<u32, usize> = BTreeMap::new();
        let mut table_at: BTreeMap<u32, usize> = BTreeMap::new();
        for (i, inst) in program.instructions.iter().enumerate() {
            match (&inst.decl, inst.op) {
                (DeclKind::Count(fb), Op::DclFunctionBody) => {
                    if let Some(first) = declared.insert(*fb, i) {
                        return Err(fail(
                            i,
                            format!("fb{fb} is declared twice (first at instruction {first})"),
                        ));
                    }
                }
                (DeclKind::FunctionTable { table, bodies }, _) => {
                    if let Some(first) = table_at.insert(*table, i) {
                        return Err(fail(
                            i,
                            format!("ft{table} is declared twice (first at instruction {first})"),
                        ));
                    }
                    l.tables.insert(*table, bodies.clone());
                }
                (
                    DeclKind::Interface {
                        index,
                        table_length,
                        array_length,
                        tables,
                    },
                    _,
                ) => {
                    let length = (*array_length).max(1);
                    let end = u64::from(*index) + u64::from(length);
                    if let Some((fp, other)) = l.interfaces.iter().find(|(fp, o)| {
                        u64::from(**fp) < end
                            && u64::from(*index) < u64::from(**fp) + u64::from(o.length)
                    }) {
                        return Err(fail(
                            i,
                            format!(
                                "fp{index}[{length}] takes a slot fp{fp}[{}] (instruction {}) \
                                 already takes",
                                other.length, other.at
                            ),
                        ));
                    }
                    l.interfaces.insert(
                        *index,
                        Interface {
                            length,
                            calls: *table_length,
                            tables: tables.clone(),
                            at: i,
                        },
                    );
                }
                _ => {}
            }
            // `label fbN` (a plain subroutine's `label lN` may share the
            // number, so the operand type tells them apart).
            if inst.op == Op::Label
                && let Some(op) = inst.operands.first()
                && op.ty == OperandType::FUNCTION_BODY
                && let Some(id) = op.reg()
            {
                l.labels.entry(id).or_insert(i);
            }
        }
        // What each declaration names, now that every one is known.
        for (table, bodies) in &l.tables {
            let at = table_at[table];
            for (site, fb) in bodies.iter().enumerate() {
                if !declared.contains_key(fb) {
                    return Err(fail(
                        at,
                        format!(
                            "ft{table}'s entry {site} is fb{fb}, which no `dcl_function_body` declares"
                        ),
                    ));
                }
                if !l.labels.contains_key(fb) {
                    return Err(fail(
                        at,
                        format!("ft{table}'s entry {site} is fb{fb}, which has no `label fb{fb}`"),
                    ));
                }
            }
        }
        for (fp, interface) in &l.interfaces {
            if let Some(ft) = interface.tables.iter().find(|t| !l.tables.contains_key(t)) {
                return Err(fail(
                    interface.at,
                    format!("fp{fp} lists ft{ft}, which no `dcl_function_table` declares"),
                ));
            }
        }
        for (i, inst) in program.instructions.iter().enumerate() {
            if inst.op != Op::InterfaceCall {
                continue;
            }
            let fp = inst
                .operands
                .first()
                .and_then(|o| o.indices.first())
                .and_then(Index::imm);
            match fp {
                Some(fp) if u32::try_from(fp).is_ok_and(|fp| l.interfaces.contains_key(&fp)) => {}
                Some(fp) => return Err(fail(i, format!("fp{fp} has no `dcl_interface`"))),
                None => return Err(fail(i, "the call names no interface".into())),
            }
        }
        Ok(l)
    }

    /// `fpN`, the interface whose first slot is `fp`.
    pub fn interface(&self, fp: u32) -> Option<&Interface> {
        self.interfaces.get(&fp)
    }

    /// Every interface, by first slot.
    pub fn interfaces(&self) -> impl Iterator<Item = (u32, &Interface)> + '_ {
        self.interfaces.iter().map(|(fp, i)| (*fp, i))
    }

    /// `ftN`'s bodies, one per call site.
    pub fn table(&self, ft: u32) -> Option<&[u32]> {
        self.tables.get(&ft).map(Vec::as_slice)
    }

    /// The instruction index of `label fbN`.
    pub fn label(&self, fb: u32) -> Option<usize> {
        self.labels.get(&fb).copied()
    }

    /// Interface slots in all: one past the last slot any interface takes.
    pub fn slots(&self) -> u32 {
        self.interfaces
            .iter()
            .map(|(fp, i)| fp.saturating_add(i.length))
            .max()
            .unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dxbc::asm::test_shader;

    /// fxc's layout for two interfaces, one an array of two slots.
    const GOOD: &str = "ps_5_0\n\
        dcl_function_body fb0\ndcl_function_body fb1\ndcl_function_body fb2\n\
        dcl_function_table ft0 = {fb0}\ndcl_function_table ft1 = {fb1}\n\
        dcl_function_table ft2 = {fb2}\n\
        dcl_interface fp0[2][1] = {ft0, ft1}\ndcl_interface fp2[1][1] = {ft2}\n\
        fcall fp0[1][0]\nfcall fp2[0][0]\nret\n\
        label fb0\nret\nlabel fb1\nret\nlabel fb2\nret\n";

    fn check(text: &str) -> Result<Linkage, AnalysisError> {
        Linkage::of(&test_shader(text).program)
    }

    #[test]
    fn declarations_are_read_once() {
        let l = check(GOOD).expect("fxc's layout checks");
        let fp0 = l.interface(0).expect("fp0");
        assert_eq!(
            (fp0.length, fp0.calls, fp0.tables.as_slice()),
            (2, 1, &[0, 1][..])
        );
        assert_eq!(l.interface(1), None, "fp0's second slot is no interface");
        assert_eq!(l.table(1), Some(&[1][..]));
        // 0-2 bodies, 3-5 tables, 6-7 interfaces, 8-10 calls and ret,
        // 11 label fb0, 13 label fb1.
        assert_eq!((l.label(0), l.label(1)), (Some(11), Some(13)));
        assert_eq!(l.slots(), 3);
        assert_eq!(
            l.interfaces().map(|(fp, _)| fp).collect::<Vec<_>>(),
            vec![0, 2]
        );
    }

    /// Each rule: the text it breaks, the instruction named, the message.
    #[test]
    fn each_rule_names_the_instruction() {
        let cases: [(&str, &str, usize, &str); 7] = [
            (
                "dcl_function_body fb1\n",
                "dcl_function_body fb1\ndcl_function_body fb1\n",
                2,
                "fb1 is declared twice (first at instruction 1)",
            ),
            (
                "dcl_function_table ft2 = {fb2}\n",
                "dcl_function_table ft2 = {fb2}\ndcl_function_table ft2 = {fb2}\n",
                6,
                "ft2 is declared twice (first at instruction 5)",
            ),
            (
                "dcl_interface fp2[1][1] = {ft2}\n",
                "dcl_interface fp1[1][1] = {ft2}\n",
                7,
                "fp1[1] takes a slot fp0[2] (instruction 6) already takes",
            ),
            (
                "dcl_function_table ft1 = {fb1}\n",
                "dcl_function_table ft1 = {fb7}\n",
                4,
                "ft1's entry 0 is fb7, which no `dcl_function_body` declares",
            ),
            (
                "label fb1\nret\n",
                "",
                4,
                "ft1's entry 0 is fb1, which has no `label fb1`",
            ),
            (
                "dcl_interface fp2[1][1] = {ft2}\n",
                "dcl_interface fp2[1][1] = {ft3}\n",
                7,
                "fp2 lists ft3, which no `dcl_function_table` declares",
            ),
            (
                "fcall fp2[0][0]\n",
                "fcall fp5[0][0]\n",
                9,
                "fp5 has no `dcl_interface`",
            ),
        ];
        for (from, to, index, message) in cases {
            assert!(GOOD.contains(from), "{from}");
            let e = check(&GOOD.replacen(from, to, 1)).expect_err(message);
            assert_eq!(
                (e.index, e.check, e.message.as_str()),
                (index, Check::Linkage, message)
            );
        }
    }
}
