//! Arbitrary op sequences on the Minecraft-exact path: the case the input
//! decodes to (see `decode_case`) run by the rig's own `RustExecutor`
//! (`unpack_lenient`, `read_lenient`, the `try_` accessors). Minecraft
//! throws, it never aborts: any panic in the crate is a bug, and so is an
//! error the executor cannot map to a Minecraft result (`Internal`).
#![no_main]

use harness::exec::{ExecError, Executor};
use harness::rust::RustExecutor;
use libfuzzer_sys::fuzz_target;
use paletted_fuzz::decode_case;

fuzz_target!(|data: &[u8]| {
    let case = decode_case(data);
    match RustExecutor::new().run(&case) {
        Ok(results) => assert_eq!(results.len(), case.ops.len()),
        // A case Java cannot express, or a path the rig does not model.
        Err(ExecError::Invalid { .. } | ExecError::Unsupported { .. }) => {}
        Err(e @ ExecError::Internal { .. }) => panic!("{e}"),
    }
});
