//! Reading a BPMN file as a stream: one XML event in memory at a time, so the outline of a 20 MB file
//! never holds the file as well as what was read from it.
//!
//! A large file is read on two threads: one turns the bytes into XML events (quick-xml, UTF-8
//! checks), the other builds the outline from them ([`Builder`]), each event handed over as its text
//! in batches of [`BATCH_BYTES`]. The builder sees the same events in the same order as on one thread,
//! so the outline is the same; the two halves of the work, about equal, overlap.
//!
//! Only clean UTF-8 with LF line ends is read this way. Whatever decoding would change (a CR, bytes
//! that are not UTF-8) or a break in the XML makes [`read_utf8_stream`] decline, and the caller reads
//! the whole file the usual way, which decides what such bytes mean. This module knows nothing of
//! what the events mean.

use std::io::{BufReader, Read};
use std::sync::mpsc;

use quick_xml::Reader;
use quick_xml::events::Event;

use super::model::Definitions;
use super::reader::Builder;
use super::xml::{Mark, configured, feed};

/// Bytes read from a file at a time.
const STREAM_BUFFER: usize = 256 << 10;

/// From this size on a file is read on two threads. Below it a file reads in a few milliseconds, and
/// the service reads many small project files at once: one thread each is enough.
const TWO_THREADS_FROM: u64 = 1 << 20;

/// The text of the events handed over at a time, and the batches in flight. The same few batches go
/// back and forth, so the hand-over costs a few hundred kilobytes however large the file.
const BATCH_BYTES: usize = 64 << 10;
const BATCHES_IN_FLIGHT: usize = 3;

/// Reads BPMN from a stream of `size` bytes (as the file system reports it) of UTF-8 with LF line
/// ends. `None` when the stream breaks, is not valid UTF-8 or holds a CR.
pub(super) fn read_utf8_stream(stream: impl Read + Send, size: u64) -> Option<Definitions> {
    if size < TWO_THREADS_FROM {
        return on_one_thread(stream);
    }
    std::thread::scope(|scope| {
        let (batches, received) = mpsc::sync_channel::<Option<Batch>>(BATCHES_IN_FLIGHT);
        let (give_back, returned) = mpsc::channel::<Batch>();
        // a thread the system refuses is a whole read instead (the caller's), never a panic
        let tokenizer = std::thread::Builder::new()
            .name("bpmn-tokenizer".into())
            .spawn_scoped(scope, move || tokenize(stream, &batches, &returned))
            .ok()?;
        let mut b = Builder::default();
        for batch in received {
            let mut batch = batch?;
            for piece in &batch.pieces {
                feed(&mut b, batch.mark(piece));
            }
            batch.clear();
            let _ = give_back.send(batch);
        }
        let clean = tokenizer.join().ok()?;
        clean.then(|| b.finish())
    })
}

/// The whole read on the calling thread.
fn on_one_thread(stream: impl Read) -> Option<Definitions> {
    let mut b = Builder::default();
    let clean = each_event(stream, |mark| {
        feed(&mut b, mark);
        true
    })?;
    clean.then(|| b.finish())
}

/// The tokenizing half: every event of `stream` into batches; `None` sent when the stream breaks.
/// Returns whether the stream was clean (no CR), which is known only at its end.
fn tokenize(
    stream: impl Read,
    batches: &mpsc::SyncSender<Option<Batch>>,
    returned: &mpsc::Receiver<Batch>,
) -> bool {
    let mut batch = Batch::new();
    let clean = each_event(stream, |mark| {
        if !batch.push(mark) {
            return false;
        }
        if batch.text.len() >= BATCH_BYTES {
            let next = returned.try_recv().unwrap_or_else(|_| Batch::new());
            // an error: the builder stopped
            return batches.send(Some(std::mem::replace(&mut batch, next))).is_ok();
        }
        true
    });
    let _ = batches.send(clean.map(|_| batch));
    clean.unwrap_or(false)
}

/// Every event of `stream`, as the builder takes it, to `each`, which returns `false` to stop.
/// `None` when the stream breaks or `each` stopped; else whether the stream was clean (no CR).
fn each_event(stream: impl Read, mut each: impl FnMut(Mark<'_>) -> bool) -> Option<bool> {
    let watched = CrWatch { inner: stream, seen: false };
    let mut reader = configured(Reader::from_reader(BufReader::with_capacity(STREAM_BUFFER, watched)));
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match reader.read_event_into(&mut buf) {
            Ok(Event::Eof) => break,
            Err(_) => return None,
            Ok(event) if !each(Mark::of(&event)) => return None,
            Ok(_) => {}
        }
    }
    Some(!reader.into_inner().into_inner().seen)
}

/// Events handed from the tokenizer to the builder: their texts in one string, and what each is.
struct Batch {
    text: String,
    pieces: Vec<Piece>,
}

/// One event of a [`Batch`]: its kind and where its text is (`mid` splits a tag's name from its
/// attributes), as offsets into the batch's text.
struct Piece {
    kind: Kind,
    start: u32,
    mid: u32,
    end: u32,
}

#[derive(Clone, Copy)]
enum Kind {
    Text,
    Reference,
    CData,
    Start,
    Empty,
    Close,
    Break,
}

impl Batch {
    fn new() -> Batch {
        Batch {
            text: String::with_capacity(BATCH_BYTES + 4096),
            pieces: Vec::with_capacity(BATCH_BYTES / 32),
        }
    }

    fn clear(&mut self) {
        self.text.clear();
        self.pieces.clear();
    }

    /// Adds an event; `false` when its text does not fit a batch's offsets (an event over 4 GB,
    /// which only a raised size limit lets in: the whole read takes it instead).
    fn push(&mut self, mark: Mark<'_>) -> bool {
        let start = self.text.len();
        let (kind, mid) = match mark {
            Mark::Text(t) => (Kind::Text, self.add(t)),
            Mark::Reference(r) => (Kind::Reference, self.add(r)),
            Mark::CData(c) => (Kind::CData, self.add(c)),
            Mark::Open { name, attrs, children } => {
                let mid = self.add(name);
                self.add(attrs);
                (if children { Kind::Start } else { Kind::Empty }, mid)
            }
            Mark::Close => (Kind::Close, start),
            Mark::Break => (Kind::Break, start),
            Mark::Nothing => return true,
        };
        let offsets = (u32::try_from(start), u32::try_from(mid), u32::try_from(self.text.len()));
        let (Ok(start), Ok(mid), Ok(end)) = offsets else { return false };
        self.pieces.push(Piece { kind, start, mid, end });
        true
    }

    /// Appends `text`, returning where it ends.
    fn add(&mut self, text: &str) -> usize {
        self.text.push_str(text);
        self.text.len()
    }

    fn mark(&self, piece: &Piece) -> Mark<'_> {
        let (start, mid, end) = (piece.start as usize, piece.mid as usize, piece.end as usize);
        let text = &self.text[start..end];
        match piece.kind {
            Kind::Text => Mark::Text(text),
            Kind::Reference => Mark::Reference(text),
            Kind::CData => Mark::CData(text),
            Kind::Start | Kind::Empty => Mark::Open {
                name: &self.text[start..mid],
                attrs: &self.text[mid..end],
                children: matches!(piece.kind, Kind::Start),
            },
            Kind::Close => Mark::Close,
            Kind::Break => Mark::Break,
        }
    }
}

/// A stream that notes whether any CR went by, which the decoded text would have normalised away.
/// Checked a buffer at a time, not an event at a time.
struct CrWatch<R> {
    inner: R,
    seen: bool,
}

impl<R: Read> Read for CrWatch<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.seen |= memchr::memchr(b'\r', &buf[..n]).is_some();
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both ways of streaming, and the whole read of the decoded text.
    fn three(bytes: &[u8]) -> (Option<Definitions>, Option<Definitions>, Definitions) {
        (
            on_one_thread(bytes),
            read_utf8_stream(bytes, u64::MAX),
            super::super::reader::read_text(&super::super::decode::decode(bytes)),
        )
    }

    /// A process of `n` steps with every kind of event the builder takes: references, CDATA,
    /// comments, processing instructions, ignored subtrees, data-flow places.
    fn large_process(n: usize) -> String {
        let mut xml = String::from(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE x>\n<bpmn:definitions \
             xmlns:bpmn=\"http://www.omg.org/spec/BPMN/20100524/MODEL\" \
             xmlns:zeebe=\"http://camunda.org/schema/zeebe/1.0\">\n<bpmn:process id=\"p\" name=\"Big\">\n",
        );
        for i in 0..n {
            xml.push_str(&format!(
                "<bpmn:userTask id=\"t{i}\" name=\"Step {i} &amp; more\">\
                 <bpmn:documentation>Check <![CDATA[<item {i}>]]> &#10; and &lt;more&gt;</bpmn:documentation>\
                 <!-- note {i} --><?pi {i}?>\
                 <bpmn:extensionElements><zeebe:ioMapping>\
                 <zeebe:input source=\"=order.items[{i}]\" target=\"item{i}\"/>\
                 <zeebe:output source=\"=approved\" target=\"ok{i}\"/></zeebe:ioMapping>\
                 <other:thing xmlns:other=\"urn:x\"><other:deep>{i}</other:deep></other:thing>\
                 </bpmn:extensionElements></bpmn:userTask>\n\
                 <bpmn:sequenceFlow id=\"f{i}\" sourceRef=\"t{i}\" targetRef=\"t{}\">\
                 <bpmn:conditionExpression>= ok{i} &gt; {i}</bpmn:conditionExpression></bpmn:sequenceFlow>\n",
                i + 1
            ));
        }
        xml.push_str("</bpmn:process>\n</bpmn:definitions>\n");
        xml
    }

    #[test]
    fn two_threads_read_what_one_does() {
        let xml = large_process(3_000); // over a megabyte: many batches
        assert!(xml.len() > BATCH_BYTES * 4, "{}", xml.len());
        let (one, two, whole) = three(xml.as_bytes());
        assert_eq!(whole.processes[0].elements.len(), 6_000);
        assert!(!whole.processes[0].elements[10].documentation.is_empty());
        assert_eq!(one.as_ref(), Some(&whole));
        assert_eq!(two.as_ref(), Some(&whole));
    }

    #[test]
    fn two_threads_decline_what_one_declines() {
        let mut cr = large_process(3_000);
        cr.insert_str(cr.len() / 2, "\r\n");
        let mut broken = large_process(3_000);
        let at = broken[broken.len() / 2..].find("</bpmn:userTask>").unwrap() + broken.len() / 2;
        broken.insert_str(at, "</bpmn:wrong>");
        let mut latin1 = large_process(3_000).into_bytes();
        latin1.insert(latin1.len() / 2, 0xE9);
        for bytes in [cr.as_bytes(), broken.as_bytes(), &latin1] {
            let (one, two, whole) = three(bytes);
            assert_eq!((one, two), (None, None));
            assert!(!whole.processes.is_empty());
        }
    }
}
