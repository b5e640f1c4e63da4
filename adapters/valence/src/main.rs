//! Conformance adapter for valence 0.2.0-alpha.1+mc.1.20.1 (PROTOCOL.md,
//! "Adapters"), on the Rust kit: every op through valence_server's public
//! chunk API (`UnloadedChunk::with_height`, `Chunk::{block_state,
//! set_block_state, biome, set_biome, fill_block_state_section,
//! fill_biome_section}`). Its paletted containers are crate-private; a
//! chunk of one section stands for a container.
//!
//! valence targets Minecraft 1.20.1, whose wire form carries a VarInt long
//! count before the longs: its packet encoding waits for that form in the
//! rig (the versions issue), so `write` and `read` are unsupported, as is
//! everything its chunk API does not show (bits, palette, counts, the disk
//! form, bit storages).

#[allow(dead_code)] // the kit's helpers this adapter does not need
#[path = "../../shared/protocol.rs"]
mod protocol;

use protocol::{int, ok, unsupported, Outcome, Subject};
use serde_json::{json, Value};
use valence_server::layer::chunk::{Chunk, UnloadedChunk};
use valence_server::registry::biome::BiomeId;
use valence_server::registry::RegistryIdx;
use valence_server::BlockState;

const VERSION: &str = "0.2.0-alpha.1+mc.1.20.1";

/// One section's blocks or biomes.
struct Section {
    blocks: bool,
    chunk: UnloadedChunk,
}

impl Section {
    fn new(blocks: bool, initial: i64) -> Result<Self, Outcome> {
        let mut chunk = UnloadedChunk::with_height(16);
        if blocks {
            chunk.fill_block_state_section(0, state(initial)?);
        } else {
            chunk.fill_biome_section(0, biome(initial)?);
        }
        Ok(Section { blocks, chunk })
    }

    fn pos(op: &Value) -> Result<(u32, u32, u32), Outcome> {
        let axis = |f: &str| {
            let v = int(op, f)?;
            u32::try_from(v)
                .map_err(|_| unsupported(format!("{f} {v}: valence takes u32 coordinates")))
        };
        Ok((axis("x")?, axis("y")?, axis("z")?))
    }

    /// set or get_and_set: the old value (valence's setters return it).
    fn set(&mut self, op: &Value) -> Result<i64, Outcome> {
        let (x, y, z) = Self::pos(op)?;
        let v = int(op, "value")?;
        Ok(if self.blocks {
            self.chunk
                .set_block_state(x, y, z, state(v)?)
                .to_raw()
                .into()
        } else {
            self.chunk.set_biome(x, y, z, biome(v)?).to_index() as i64
        })
    }
}

fn state(id: i64) -> Result<BlockState, Outcome> {
    u16::try_from(id)
        .ok()
        .and_then(BlockState::from_raw)
        .ok_or_else(|| {
            unsupported(format!(
                "block state {id} is not in valence's 1.20.1 registry"
            ))
        })
}

fn biome(id: i64) -> Result<BiomeId, Outcome> {
    usize::try_from(id)
        .map(BiomeId::from_index)
        .map_err(|_| unsupported(format!("biome {id} is negative")))
}

impl Subject for Section {
    fn run(&mut self, op: &Value) -> Result<Outcome, Outcome> {
        Ok(match op["op"].as_str().unwrap_or("") {
            "set" => {
                self.set(op)?;
                ok(Value::Null)
            }
            "get_and_set" => ok(self.set(op)?),
            "get" => {
                let (x, y, z) = Self::pos(op)?;
                if self.blocks {
                    ok(self.chunk.block_state(x, y, z).to_raw())
                } else {
                    ok(self.chunk.biome(x, y, z).to_index())
                }
            }
            "write" | "read" | "serialized_size" => {
                unsupported("valence's wire form is 1.20.1's (a long count): not compared yet")
            }
            other => unsupported(format!("valence's chunk API has no `{other}`")),
        })
    }
}

struct Valence;

impl protocol::Adapter for Valence {
    fn handshake(&self) -> Value {
        json!({
            "protocol": 1,
            "implementation": "valence",
            "version": VERSION,
            "minecraft": "1.20.1",
            "ops": {"container": ["set", "get", "get_and_set"]},
            "notes": "valence_server's UnloadedChunk of one section (height 16), built with \
                debug assertions off (release semantics); a non-zero initial value is \
                fill_block_state_section / fill_biome_section. Positions are u32 coordinates, \
                checked per axis by valence; block states must be in its 1.20.1 registry. Its \
                1.20.1 wire form (write, read) is not compared yet; it shows no bits, palette, \
                counts, disk form or bit storage. Panics are reported as `panic`.",
        })
    }

    fn subject(&self, subject: &Value) -> Result<Box<dyn Subject>, Outcome> {
        match (subject["kind"].as_str(), subject["strategy"].as_str()) {
            (Some("container"), Some(s)) => Ok(Box::new(Section::new(
                s == "block_states",
                int(subject, "initial")?,
            )?)),
            _ => Err(unsupported("valence has no bit storage in its public API")),
        }
    }
}

fn main() -> std::io::Result<()> {
    protocol::serve(&Valence)
}
