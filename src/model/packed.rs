//! Text held deflated while a generation waits on its model: the prompt is needed again only for a
//! repair round, and thousands of generations may wait at once. Prompts are repetitive prose and
//! JSON, and deflate keeps less than half of their bytes.

use std::cell::RefCell;
use std::fmt;

use miniz_oxide::deflate::core::{
    CompressorOxide, TDEFLFlush, TDEFLStatus, compress, create_comp_flags_from_zip_params,
};

/// Text held deflated; [`Packed::text`] gives it back.
#[derive(Clone, PartialEq, Eq, Default)]
pub struct Packed(Box<[u8]>);

/// deflate's fastest level: on a prompt the default level saves a tenth more of its bytes for
/// several times the time.
const LEVEL: u8 = 1;

impl Packed {
    /// `text`, deflated.
    pub fn new(text: &str) -> Packed {
        Packed(deflated(text.as_bytes()).into_boxed_slice())
    }

    /// The text again.
    pub fn text(&self) -> String {
        // only `new` builds one, from a `&str`: the bytes inflate to the UTF-8 they were
        let bytes = miniz_oxide::inflate::decompress_to_vec(&self.0).unwrap_or_default();
        String::from_utf8(bytes).unwrap_or_default()
    }

    /// The bytes held.
    pub fn held_bytes(&self) -> usize {
        self.0.len()
    }
}

thread_local! {
    /// One compressor per thread, made on its first use: a compressor is some 300 KB of tables, and
    /// one made and dropped per prompt leaves the allocator's arenas holding that much between the
    /// small prompts that outlive it.
    static COMPRESSOR: RefCell<Option<Box<CompressorOxide>>> = const { RefCell::new(None) };
}

/// `input`, deflated (raw deflate, no header) by this thread's compressor.
fn deflated(input: &[u8]) -> Vec<u8> {
    COMPRESSOR.with_borrow_mut(|kept| {
        let compressor = kept.get_or_insert_with(|| {
            Box::new(CompressorOxide::new(create_comp_flags_from_zip_params(LEVEL.into(), 0, 0)))
        });
        compressor.reset();
        let mut output = vec![0; (input.len() / 2).max(64)];
        let (mut read, mut written) = (0, 0);
        loop {
            let (status, bytes_in, bytes_out) =
                compress(compressor, &input[read..], &mut output[written..], TDEFLFlush::Finish);
            read += bytes_in;
            written += bytes_out;
            match status {
                TDEFLStatus::Done => {
                    output.truncate(written);
                    return output;
                }
                TDEFLStatus::Okay => {
                    if output.len() - written < 64 {
                        output.resize(output.len() * 2, 0);
                    }
                }
                // not with these flags and buffers; a fresh compressor's answer is the same text
                _ => return miniz_oxide::deflate::compress_to_vec(input, LEVEL),
            }
        }
    })
}

impl From<&str> for Packed {
    fn from(text: &str) -> Packed {
        Packed::new(text)
    }
}

impl From<String> for Packed {
    fn from(text: String) -> Packed {
        Packed::new(&text)
    }
}

impl fmt::Debug for Packed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Packed({} bytes)", self.0.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_comes_back_as_it_was() {
        let long = "A vacation request form with its days and a reason. ".repeat(2_000);
        // one after another on one thread: the kept compressor starts afresh each time
        for text in ["", "ä ö ü 漢字 🙂", &long, "x", &long] {
            assert_eq!(Packed::new(text).text(), text);
        }
    }

    #[test]
    fn text_that_does_not_shrink_comes_back_too() {
        let noise: String =
            (0..20_000u32).map(|i| char::from_u32(0x4e00 + (i * 7919) % 20_000).unwrap()).collect();
        assert_eq!(Packed::new(&noise).text(), noise);
    }

    #[test]
    fn a_prompt_is_held_in_less_than_half_its_bytes() {
        // a rendered prompt, as the starting-point test keeps it
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/it/snapshots/it__starting_point__claim-review-prompt.snap"
        );
        let prompt = std::fs::read_to_string(path).unwrap();
        let packed = Packed::new(&prompt);
        assert!(
            packed.held_bytes() * 2 < prompt.len(),
            "{path}: {} of {}",
            packed.held_bytes(),
            prompt.len()
        );
    }
}
