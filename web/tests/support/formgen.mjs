// Real `formgen serve` processes and a streaming chat-completions model double, for the client's unit tests
// and the browser tests. Nothing here is mocked on formgen's side: the tests talk to the binary.
//   FORMGEN_BIN  the formgen binary (default ../target/debug/formgen, relative to web/)
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createWriteStream, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const WEB = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const BIN = process.env.FORMGEN_BIN
  ? resolve(process.env.FORMGEN_BIN)
  : resolve(WEB, '../target/debug/formgen');

const TIMEOUT = 15_000;
const children = new Set();
const TMP = mkdtempSync(join(tmpdir(), 'formgen-web-'));

// A crash of a test must not leave servers behind.
process.on('exit', () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
});

/** The sha256 of a token, as `[[auth.principals]]` wants it. */
export const sha256 = (text) => createHash('sha256').update(text).digest('hex');

/**
 * Starts `formgen serve --config` with this TOML; resolves with `{url, stop}` once it prints its address.
 * `logDir` keeps its stderr (default: a temporary folder).
 */
export async function startFormgen(name, config, { env = {}, logDir = TMP } = {}) {
  const configPath = join(TMP, `${name}.toml`);
  writeFileSync(configPath, config);
  const child = spawn(BIN, [ 'serve', '--config', configPath ], {
    env: { ...process.env, ...env },
    stdio: [ 'ignore', 'pipe', 'pipe' ],
  });
  children.add(child);
  child.stderr.pipe(createWriteStream(join(logDir, `server-${name}.log`)));
  const line = await new Promise((resolveLine, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once('line', resolveLine);
    child.once('error', (err) => reject(new Error(`formgen serve (${name}) did not start: ${err.message} (FORMGEN_BIN=${BIN})`)));
    child.once('exit', (code) => reject(new Error(`formgen serve (${name}) exited with ${code}; see ${logDir}/server-${name}.log`)));
    setTimeout(() => reject(new Error(`formgen serve (${name}) printed no address within ${TIMEOUT} ms`)), TIMEOUT).unref();
  });
  const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
  if (!match) throw new Error(`formgen serve (${name}) printed "${line}" instead of its address`);
  return {
    url: match[1],
    stop: () => stopChild(child),
  };
}

function stopChild(child) {
  return new Promise((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done();
    const force = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(force);
      children.delete(child);
      done();
    });
    child.kill('SIGTERM');
  });
}

/** Stops every server this module started. */
export function stopAll() {
  return Promise.all([ ...children ].map(stopChild));
}

export const builtinConfig = (extra = '') => `[server]
listen = "127.0.0.1:0"
${extra}
[[workers]]
name = "builtin"
provider = "builtin"
`;

/** A Worker pointing at a chat-completions endpoint (the double below). */
export const modelConfig = (endpoint, extra = '') => `[server]
listen = "127.0.0.1:0"
${extra}
[[workers]]
name = "stream"
provider = "chat-completions"
endpoint = "${endpoint}/v1"
model = "m"
structured_output = false
`;

/**
 * A chat-completions model double that streams a form of the given fields as `delta` chunks, `chunk`
 * characters every `delayMs`. `closed` counts connections the client (formgen) closed before the answer was
 * complete; `requests` the bodies it was sent.
 */
export async function startStreamingModel({ labels = [ 'Alpha', 'Beta', 'Gamma', 'Delta' ], chunk = 6, delayMs = 60 } = {}) {
  const form = JSON.stringify({
    components: labels.map((w) => ({ type: 'textfield', key: w.toLowerCase(), label: `${w} field` })),
  });
  const model = { closed: 0, requests: [], url: '', server: null };
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => { body += d; });
    req.on('end', async () => {
      model.requests.push(body);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let finished = false;
      res.on('close', () => { if (!finished) model.closed += 1; });
      for (let i = 0; i < form.length; i += chunk) {
        if (res.destroyed) return;
        res.write(`data: ${JSON.stringify({ choices: [ { delta: { content: form.slice(i, i + chunk) } } ] })}\n\n`);
        await new Promise((r) => setTimeout(r, delayMs));
      }
      res.write(`data: ${JSON.stringify({ choices: [ { delta: {}, finish_reason: 'stop' } ] })}\n\n`);
      res.write('data: [DONE]\n\n');
      finished = true;
      res.end();
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  model.url = `http://127.0.0.1:${server.address().port}`;
  model.server = server;
  model.stop = () => new Promise((r) => {
    server.closeAllConnections();
    server.close(r);
  });
  return model;
}

/** Polls `condition` every 20 ms until it holds, or fails after `ms`. */
export async function eventually(condition, ms, message) {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(message);
    await new Promise((r) => setTimeout(r, 20));
  }
}
