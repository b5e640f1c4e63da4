//! Minecraft 26.3's paletted chunk containers, byte for byte.
//!
//! A chunk section keeps its 4,096 block states and 64 biomes in
//! [`PalettedContainer`]s: a short palette of the values present and, for
//! every position, an index into it packed into longs by a [`BitStorage`].
//! The palette changes kind as it grows ([`Strategy`] says which kind a bit
//! count gets), and both the wire form ([`PalettedContainer::write`]) and the
//! disk form ([`PalettedContainer::pack`]) depend on which entries the palette
//! holds and in what order, so this crate reproduces Minecraft's order for
//! every one of them.
//!
//! 26.3 is the default; a [`Version`] (every release from 1.18 to 26.3)
//! gives the strategies of an older release, whose [`Rules`] change the
//! wire form (the long count before 1.21.5), `serialized_size` (its
//! pre-1.20.2 bug), what `read` does with a count that does not match, and
//! which of `fill`, the declared bits and the fluid count exist. A
//! [`Section`] is a chunk section as a packet sends it, and a [`Column`]
//! the section data of a whole chunk packet.
//!
//! ```
//! use paletted::{Packed, PalettedContainer, Strategy};
//!
//! // Bedrock, dirt, dirt and grass over air, in 26.3's 35,723 block states.
//! let blocks = Strategy::block_states(35723);
//! let mut section = PalettedContainer::new(0, blocks);
//! for x in 0..16 {
//!     for z in 0..16 {
//!         section.set(x, 0, z, 88);
//!         section.set(x, 1, z, 10);
//!         section.set(x, 2, z, 10);
//!         section.set(x, 3, z, 9);
//!     }
//! }
//! assert_eq!(section.bits(), 4);
//! assert_eq!(section.get(4, 1, 9), 10);
//! // Minecraft's count order, not the palette's.
//! assert_eq!(section.counts(), [(0, 3072), (10, 512), (88, 256), (9, 256)]);
//!
//! // As a chunk packet sends it: the bits, the palette as added, the longs.
//! let mut sent = Vec::new();
//! section.write(&mut sent);
//! assert_eq!(sent.len(), 1 + 1 + 4 + 2048);
//! assert_eq!(&sent[..4], &[4, 4, 0, 88]);
//!
//! // As a region file saves it: the palette in first-appearance order.
//! let saved = section.pack();
//! assert_eq!(saved.palette, [88, 10, 9, 0]);
//! assert_eq!(saved.data.as_ref().map(Vec::len), Some(256));
//! let loaded = PalettedContainer::unpack(blocks, saved).unwrap();
//! assert_eq!(loaded.get(4, 3, 9), 9);
//!
//! let err = PalettedContainer::unpack(blocks, Packed::new(vec![1, 2], None)).unwrap_err();
//! assert_eq!(err.to_string(), "Missing values for non-zero storage");
//! ```
#![forbid(unsafe_code)]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![warn(missing_docs)]

#[cfg(feature = "anvil")]
#[cfg_attr(docsrs, doc(cfg(feature = "anvil")))]
pub mod anvil;
mod column;
mod container;
mod count;
mod error;
mod pack;
mod palette;
#[cfg(feature = "plant")]
mod plant;
mod section;
#[cfg(feature = "serde")]
mod serialize;
mod storage;
mod strategy;
pub mod version;
pub mod wire;

pub use column::Column;
pub use container::{PalettedContainer, Values};
pub use error::Error;
pub use pack::Packed;
pub use palette::{NULL, PaletteKind};
pub use section::{BlockKinds, Section, StateTable};
pub use storage::BitStorage;
pub use strategy::{Configuration, Kind, Strategy};
pub use version::{Rules, UnknownVersion, Version};

/// The README's Rust examples, run as doc tests so that they stay true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExamples;
