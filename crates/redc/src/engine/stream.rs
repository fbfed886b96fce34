//! The streaming submitter (placeholder until written).
