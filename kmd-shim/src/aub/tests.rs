//! The AUB writer and the replay held against each other, and the reader and replay
//! against corrupt input (NEO's recordings are checked in tests/neo_replay.rs).

use super::stream::{AddressSpace, Reader, Record};
use super::writer::AubWriter;
use super::Replay;
use crate::genx::gen9::{MiBatchBufferEnd, MiStoreDataImm};
use crate::gpu::GpuMemory;

const BATCH_VA: u64 = 0x7000_0000;
const DATA_VA: u64 = 0x1_2345_0000;

fn store_batch(values: &[(u64, u32)]) -> Vec<u8> {
    let mut dw = Vec::new();
    for &(addr, v) in values {
        dw.extend(
            MiStoreDataImm {
                address: addr,
                immediate_data: u64::from(v),
                ..Default::default()
            }
            .pack()[..4]
                .iter(),
        );
        // A dword store is 4 dwords: DWord Length 2.
        let at = dw.len() - 4;
        dw[at] = (dw[at] & !0x3ff) | 2;
    }
    dw.extend(MiBatchBufferEnd::default().pack());
    dw.push(0);
    let mut bytes: Vec<u8> = dw.iter().flat_map(|d| d.to_le_bytes()).collect();
    bytes.resize(4096, 0);
    bytes
}

fn two_submissions() -> Vec<u8> {
    let mut w = AubWriter::new(Vec::new());
    let data = vec![0xeeu8; 8192];
    let b1 = store_batch(&[(DATA_VA, 0x1111_1111), (DATA_VA + 4100, 0x2222_2222)]);
    w.submit(&[(BATCH_VA, b1), (DATA_VA, data.clone())], BATCH_VA)
        .unwrap();
    let b2 = store_batch(&[(DATA_VA + 8, 0x3333_3333)]);
    w.submit(&[(BATCH_VA + 0x1000, b2)], BATCH_VA + 0x1000)
        .unwrap();
    w.into_inner()
}

#[test]
fn written_streams_replay_exactly() {
    let aub = two_submissions();
    let mut r = Replay::default();
    r.run(&aub).unwrap();
    assert_eq!(r.submissions().len(), 2);
    assert_eq!(
        r.submissions()[1].ring.head,
        16,
        "the second starts where the first ended"
    );
    let pp = r.ppgtt().unwrap();
    let mut got = vec![0u8; 8192];
    pp.read(DATA_VA, &mut got).unwrap();
    let mut want = vec![0xeeu8; 8192];
    want[0..4].copy_from_slice(&0x1111_1111u32.to_le_bytes());
    want[8..12].copy_from_slice(&0x3333_3333u32.to_le_bytes());
    want[4100..4104].copy_from_slice(&0x2222_2222u32.to_le_bytes());
    assert_eq!(got, want);
    // The dump's ranges: the batch pages and the data pages, by address.
    let ranges: Vec<(u64, usize)> = r
        .memory_ranges()
        .iter()
        .map(|(a, b)| (*a, b.len()))
        .collect();
    assert_eq!(ranges, [(BATCH_VA, 8192), (DATA_VA, 8192)]);
}

#[test]
fn a_fault_in_a_replayed_batch_is_an_error_naming_the_submission() {
    let mut w = AubWriter::new(Vec::new());
    let b = store_batch(&[(0x9999_0000, 1)]); // an unmapped page
    w.submit(&[(BATCH_VA, b)], BATCH_VA).unwrap();
    let e = Replay::default().run(&w.into_inner()).unwrap_err();
    assert!(e.to_string().contains("submission 0"), "{e}");
    assert!(e.to_string().contains("page fault"), "{e}");
}

#[test]
fn corrupt_streams_are_errors_not_panics() {
    let aub = two_submissions();
    // Truncations at every dword of the first records, and flipped bits all over.
    for cut in (0..aub.len().min(4096)).step_by(4) {
        let _ = Replay::default().run(&aub[..cut]);
    }
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..2000 {
        let mut bad = aub.clone();
        for _ in 0..4 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let at = (seed % bad.len() as u64) as usize;
            bad[at] ^= 1 << (seed >> 61);
        }
        let _ = Replay::default().run(&bad);
    }
    // A record longer than the stream is named.
    let e = Reader::new(&[0xff, 0xff, 0x06, 0xf7])
        .next()
        .unwrap()
        .unwrap_err();
    assert!(e.to_string().contains("65536 dwords"), "{e}");
}

#[test]
fn the_reader_sees_the_records_written() {
    let aub = two_submissions();
    let records: Vec<Record> = Reader::new(&aub).map(Result::unwrap).collect();
    assert!(matches!(&records[0], Record::Version { text } if text == "gencl"));
    let elsp: Vec<u32> = records
        .iter()
        .filter_map(|r| match r {
            Record::RegisterWrite {
                offset: 0x2230,
                value,
            } => Some(*value),
            _ => None,
        })
        .collect();
    assert_eq!(elsp, [0, 0, 0, 0x10119, 0, 0, 0, 0x10119]);
    assert!(records.iter().any(|r| matches!(
        r,
        Record::MemoryWrite {
            space: AddressSpace::PpgttPml4e,
            ..
        }
    )));
}
