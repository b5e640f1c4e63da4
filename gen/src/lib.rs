//! Generates, shrinks and measures conformance cases.
