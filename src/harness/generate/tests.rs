//! Unit tests of the value rules.
