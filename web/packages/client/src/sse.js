// Server-Sent Events as formgen writes them: `event:` and `data:` lines, a blank line after each event.

/**
 * Reads an event stream and calls `onEvent(name, data)` for each event with data, in order. Resolves when
 * `onEvent` returns true (the last event of interest was seen) or the stream ends (false).
 * @param {ReadableStream<BufferSource>} stream
 * @param {(name: string, data: string) => boolean | void} onEvent
 * @returns {Promise<boolean>}
 */
export async function readEvents(stream, onEvent) {
  const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return false;
      buffer += value.replace(/\r\n?/g, '\n');
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = parseBlock(block);
        if (event && onEvent(event.name, event.data)) return true;
      }
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}

/**
 * @param {string} block
 * @returns {{ name: string, data: string } | null}
 */
function parseBlock(block) {
  let name = 'message';
  const data = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) continue; // a comment (keep-alive)
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') name = value;
    else if (field === 'data') data.push(value);
  }
  return data.length ? { name, data: data.join('\n') } : null;
}
