// Answers core calls read from stdin, one JSON request per line: `{"call": "outline", "request": {...},
// "processFile": "path"}` (the process's bytes read from the file, as the CLI reads it). Writes one
// JSON answer per line: `{"ok": ...}` or `{"error": {"code", "message"}}`. The conformance tier
// compares these answers with what the formgen CLI prints for the same inputs.
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

import * as core from '../src/index.js';

await core.init();
const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  if (!line.trim()) continue;
  const { call, request, processFile } = JSON.parse(line);
  if (processFile) request.processXml = new Uint8Array(readFileSync(processFile));
  let answer;
  try {
    answer = { ok: core[call](request) };
  } catch (e) {
    answer = { error: { code: e.code ?? 'thrown', message: e.message } };
  }
  process.stdout.write(JSON.stringify(answer) + '\n');
}
