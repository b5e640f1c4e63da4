//! Strict against lenient: the same op sequence (see `decode_case`) on two
//! containers, one through the strict API (`unpack`, `read`, `get`, `set`,
//! `counts`, `pack`, ... in both position forms) and one through the
//! Minecraft-exact one (`unpack_lenient`, `read_lenient`, `try_*`). A strict
//! load either fails, leaving its container unchanged, or gives a container
//! equal to the lenient one; then every op agrees, and the two stay equal.
//! (Ops the strict API documents as panics, such as a position outside the
//! container, are skipped.)
#![no_main]

use harness::case::{ContainerOp, Ops, Subject};
use libfuzzer_sys::fuzz_target;
use paletted::{Packed, PalettedContainer, Strategy};
use paletted_fuzz::{decode_case, same};

fuzz_target!(|data: &[u8]| {
    let case = decode_case(data);
    let (
        Subject::Container {
            strategy,
            registry,
            initial,
            ..
        },
        Ops::Container(ops),
    ) = (case.subject, &case.ops)
    else {
        return;
    };
    let strategy = Strategy::with(strategy, registry);
    let mut s = PalettedContainer::new(initial, strategy);
    let mut l = s.clone();
    // Alternates the strict side between coordinate and index forms.
    let mut by_index = data.len() % 2 == 1;
    for op in ops {
        by_index = !by_index;
        step(&mut s, &mut l, op, by_index);
        assert!(
            same(&s, &l),
            "strict and lenient containers differ after {op}"
        );
    }
});

/// The index of a position inside the container, or `None`.
fn inside(strategy: &Strategy, x: i32, y: i32, z: i32) -> Option<usize> {
    let a = strategy.axis_len();
    let ok = |c: i32| (0..a).contains(&c);
    (ok(x) && ok(y) && ok(z)).then(|| strategy.index(x, y, z))
}

fn step(s: &mut PalettedContainer, l: &mut PalettedContainer, op: &ContainerOp, by_index: bool) {
    let strategy = s.strategy();
    match *op {
        ContainerOp::Set { x, y, z, value } => {
            let Some(i) = inside(&strategy, x, y, z) else {
                return;
            };
            let v = value as u32;
            if by_index {
                s.set_at(i, v)
            } else {
                s.set(x, y, z, v)
            }
            l.try_set_at(i, v).expect("try_set_at on a valid container");
        }
        ContainerOp::Get { x, y, z } => {
            let Some(i) = inside(&strategy, x, y, z) else {
                return;
            };
            let got = if by_index {
                s.get_at(i)
            } else {
                s.get(x, y, z)
            };
            assert_eq!(Ok(got), l.try_get_at(i), "get at {i}");
        }
        ContainerOp::GetAndSet { x, y, z, value } => {
            let Some(i) = inside(&strategy, x, y, z) else {
                return;
            };
            let v = value as u32;
            let old = if by_index {
                s.get_and_set_at(i, v)
            } else {
                s.get_and_set(x, y, z, v)
            };
            assert_eq!(Ok(old), l.try_get_and_set_at(i, v), "get_and_set at {i}");
        }
        ContainerOp::Bits => assert_eq!(s.bits(), l.bits()),
        ContainerOp::Palette => assert_eq!(Ok(s.palette()), l.try_palette()),
        ContainerOp::Counts => assert_eq!(Ok(s.counts()), l.try_counts()),
        ContainerOp::GetAll => assert_eq!(Ok(s.distinct()), l.try_distinct()),
        ContainerOp::MaybeHas { value } => {
            let v = value as u32;
            assert_eq!(Ok(s.maybe_has(v)), l.try_maybe_has(v));
        }
        ContainerOp::Write => {
            let (mut a, mut b) = (Vec::new(), Vec::new());
            s.write(&mut a);
            l.try_write(&mut b).expect("try_write on a valid container");
            assert_eq!(a, b, "write");
        }
        ContainerOp::SerializedSize => {
            assert_eq!(Ok(s.serialized_size()), l.try_serialized_size())
        }
        ContainerOp::Pack => assert_eq!(Ok(s.pack()), l.try_pack()),
        ContainerOp::Unpack {
            ref palette,
            ref data,
            bits,
        } => {
            let packed = Packed {
                palette: palette.iter().map(|&v| v as u32).collect(),
                data: data.clone(),
                bits,
            };
            let lenient = PalettedContainer::unpack_lenient(strategy, packed.clone());
            // When the strict side refuses (it may refuse what Minecraft
            // defers), both keep what they had.
            if let Ok(c) = PalettedContainer::unpack(strategy, packed) {
                let lc = lenient
                    .unwrap_or_else(|e| panic!("unpack accepted what unpack_lenient refused: {e}"));
                assert!(same(&c, &lc), "unpack and unpack_lenient differ");
                *s = c;
                *l = lc;
            }
        }
        ContainerOp::Read { ref bytes } => {
            let before = s.clone();
            let mut lc = l.clone();
            let lenient = lc.read_lenient(bytes);
            match s.read(bytes) {
                Ok(n) => {
                    let m = lenient
                        .unwrap_or_else(|e| panic!("read accepted what read_lenient refused: {e}"));
                    assert_eq!(n, m, "bytes consumed");
                    assert!(same(s, &lc), "read and read_lenient differ");
                    *l = lc;
                }
                Err(_) => assert!(
                    same(s, &before),
                    "a failed strict read changed the container"
                ),
            }
        }
    }
}
