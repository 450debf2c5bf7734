//! formgen's core for the browser: the editors' calls (`outline`, `draft`, `check`, `validate`, `lint`) as
//! plain WebAssembly exports over JSON, so the page, the editor modules and the bpmnlint plugin need
//! no server for what needs no model. `@formgen/core` (web/packages/core) is the JS side.
//!
//! The boundary: the host asks for room ([`formgen_alloc`]), writes the request's JSON there (and,
//! optionally, the process's raw bytes in a second buffer), calls [`formgen_call`], then reads the
//! answer's JSON ([`formgen_answer_ptr`], [`formgen_answer_len`]) before its next call. An answer is
//! `{"ok": ...}` or `{"error": {"code", "message"}}`. The module is single-threaded; one answer is
//! held at a time.

pub mod api;

use std::cell::RefCell;

thread_local! {
    static ANSWER: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Room for `len` bytes the host writes a request into; freed with [`formgen_free`].
#[unsafe(no_mangle)]
pub extern "C" fn formgen_alloc(len: usize) -> *mut u8 {
    let mut room = std::mem::ManuallyDrop::new(vec![0u8; len]);
    room.as_mut_ptr()
}

/// Gives back room [`formgen_alloc`] made.
///
/// # Safety
/// `ptr` and `len` are those of one earlier [`formgen_alloc`], freed once.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn formgen_free(ptr: *mut u8, len: usize) {
    if !ptr.is_null() {
        // SAFETY: the caller passes what formgen_alloc returned, with its length, once
        drop(unsafe { Vec::from_raw_parts(ptr, len, len) });
    }
}

/// Runs call `call` (0 outline, 1 draft, 2 check, 3 validate, 4 lint) on the request's JSON at
/// `request`/`request_len`, with the process's raw bytes at `bytes`/`bytes_len` when `bytes` is not
/// null. Returns 0 when it answered, 1 for an error answer; the answer is then read with
/// [`formgen_answer_ptr`] and [`formgen_answer_len`].
///
/// # Safety
/// Each pointer is null or points at that many bytes the host wrote.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn formgen_call(
    call: u32,
    request: *const u8,
    request_len: usize,
    bytes: *const u8,
    bytes_len: usize,
) -> u32 {
    // SAFETY: the caller passes buffers it wrote, with their lengths
    let request = unsafe { slice(request, request_len) };
    let bytes = (!bytes.is_null()).then(|| unsafe { slice(bytes, bytes_len) });
    let (status, answer) = answer(call, request, bytes);
    ANSWER.with(|a| *a.borrow_mut() = answer);
    status
}

/// Where the last answer starts.
#[unsafe(no_mangle)]
pub extern "C" fn formgen_answer_ptr() -> *const u8 {
    ANSWER.with(|a| a.borrow().as_ptr())
}

/// How long the last answer is.
#[unsafe(no_mangle)]
pub extern "C" fn formgen_answer_len() -> usize {
    ANSWER.with(|a| a.borrow().len())
}

/// # Safety
/// `ptr` is null or points at `len` readable bytes.
unsafe fn slice<'a>(ptr: *const u8, len: usize) -> &'a [u8] {
    if ptr.is_null() || len == 0 { &[] } else { unsafe { std::slice::from_raw_parts(ptr, len) } }
}

/// The status and JSON answer of one call.
pub fn answer(call: u32, request: &[u8], bytes: Option<&[u8]>) -> (u32, Vec<u8>) {
    let result = match api::Call::of_number(call) {
        Some(call) => api::run(call, request, bytes),
        None => Err(api::CallError { code: "bad_request", message: format!("there is no call {call}") }),
    };
    match result {
        Ok(value) => (0, serde_json::to_vec(&serde_json::json!({ "ok": value })).expect("JSON serialises")),
        Err(e) => (1, serde_json::to_vec(&e.to_json()).expect("JSON serialises")),
    }
}
