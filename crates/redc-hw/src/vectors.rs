//! Testbench vectors.
