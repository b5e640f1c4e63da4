//! Runs conformance cases through an executor and diffs the results.
