// What formgen's core costs in the browser, measured in headless Chromium (playwright-core): the .wasm's
// size (raw and gzip), the time to compile and instantiate it, the check of a typical step (what the
// form-js module runs after each edit; it must stay under 50 ms), the check of a step in large processes,
// and the outline of a ~1 MB process. Prints a table.
//   node tests/bench.mjs            (after npm run build: it reads packages/core/dist/formgen_core.wasm)
//   CHROMIUM   the browser (default /usr/bin/chromium)
//   RUNS       repetitions of each timed call (default 30; the median and the slowest are printed)
// The processes: fixtures/bpmn/vacation.bpmn (typical), one generated here (~200 KB and ~1 MB: a chain of
// user tasks with their forms' outputs, gateways and scripts reading them), and, when /work/shared/corpus
// is there, its largest BPMN (not needed).
import { chromium } from 'playwright-core';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

import { WEB } from './support/formgen.mjs';
import { serveStatic } from './support/static.mjs';

const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const RUNS = Number(process.env.RUNS || 30);
const CORE = join(WEB, 'packages', 'core');
const WASM = join(CORE, 'dist', 'formgen_core.wasm');
const FIXTURES = resolve(WEB, '..', 'fixtures');
const CORPUS = '/work/shared/corpus';
const TYPING_BUDGET_MS = 50;

/**
 * A process of `steps` user tasks in a row, each binding its form, writing its field to a process
 * variable through an output mapping, and followed by a gateway whose conditions read it and a script
 * task that reads the ones before: the data flow a real process has, `steps` times.
 * @param {number} steps
 */
function generatedProcess(steps) {
  const parts = [ '<bpmn:startEvent id="Start"><bpmn:outgoing>Flow_s</bpmn:outgoing></bpmn:startEvent>' ];
  let from = 'Start';
  let flow = 'Flow_s';
  const flows = [];
  for (let i = 1; i <= steps; i += 1) {
    const task = `Task_${i}`;
    flows.push(`<bpmn:sequenceFlow id="${flow}" sourceRef="${from}" targetRef="${task}" />`);
    parts.push(`<bpmn:userTask id="${task}" name="Schritt ${i}: Angaben prüfen und ergänzen">
      <bpmn:documentation>Die Sachbearbeitung prüft die Angaben aus Schritt ${i - 1} und ergänzt Betrag ${i}.</bpmn:documentation>
      <bpmn:extensionElements>
        <zeebe:userTask />
        <zeebe:formDefinition formId="form-${i}" />
        <zeebe:ioMapping>
          <zeebe:input source="=${i > 1 ? `amount${i - 1}` : '0'}" target="previous" />
          <zeebe:output source="=amount" target="amount${i}" />
          <zeebe:output source="=approved" target="approved${i}" />
          <zeebe:output source="=note" target="note${i}" />
        </zeebe:ioMapping>
      </bpmn:extensionElements>
    </bpmn:userTask>`);
    flows.push(`<bpmn:sequenceFlow id="Flow_t${i}" sourceRef="${task}" targetRef="Gateway_${i}" />`);
    parts.push(`<bpmn:exclusiveGateway id="Gateway_${i}" name="Genehmigt ${i}?" />`);
    flows.push(`<bpmn:sequenceFlow id="Flow_y${i}" sourceRef="Gateway_${i}" targetRef="Script_${i}">
      <bpmn:conditionExpression xsi:type="bpmn:tFormalExpression">= approved${i} and amount${i} &gt; ${i * 10}</bpmn:conditionExpression>
    </bpmn:sequenceFlow>`);
    flows.push(`<bpmn:sequenceFlow id="Flow_n${i}" sourceRef="Gateway_${i}" targetRef="Script_${i}">
      <bpmn:conditionExpression xsi:type="bpmn:tFormalExpression">= not(approved${i} and amount${i} &gt; ${i * 10})</bpmn:conditionExpression>
    </bpmn:sequenceFlow>`);
    parts.push(`<bpmn:scriptTask id="Script_${i}" name="Summe ${i}">
      <bpmn:extensionElements>
        <zeebe:script expression="=${i > 1 ? `total${i - 1} + ` : ''}amount${i}" resultVariable="total${i}" />
      </bpmn:extensionElements>
    </bpmn:scriptTask>`);
    from = `Script_${i}`;
    flow = `Flow_a${i}`;
  }
  flows.push(`<bpmn:sequenceFlow id="${flow}" sourceRef="${from}" targetRef="End" />`);
  parts.push('<bpmn:endEvent id="End" />');
  return `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:zeebe="http://camunda.org/schema/zeebe/1.0"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" id="Definitions_bench" targetNamespace="http://bpmn.io/schema/bpmn">
  <bpmn:process id="bench" isExecutable="true">
    ${parts.join('\n    ')}
    ${flows.join('\n    ')}
  </bpmn:process>
</bpmn:definitions>
`;
}

/** A generated process of about `bytes`. */
function processOfSize(bytes) {
  const perStep = generatedProcess(2).length - generatedProcess(1).length;
  const steps = Math.max(1, Math.round(bytes / perStep));
  return { xml: generatedProcess(steps), steps };
}

/** The corpus's largest BPMN file, when the corpus is there. */
function largestInCorpus() {
  const dir = join(CORPUS, 'bpmn');
  if (!existsSync(dir)) return null;
  const files = readdirSync(dir).filter((n) => n.endsWith('.bpmn')).map((n) => ({ n, size: statSync(join(dir, n)).size }));
  files.sort((a, b) => b.size - a.size);
  return files.length ? { name: `corpus/bpmn/${files[0].n}`, xml: readFileSync(join(dir, files[0].n), 'utf8') } : null;
}

/** Runs in the page: the measurements, with the core imported from its own source. */
async function measure({ cases, runs }) {
  const core = await import('/src/index.js');
  const bytes = new Uint8Array(await (await fetch('/dist/formgen_core.wasm')).arrayBuffer());
  const stats = (times) => {
    const sorted = [ ...times ].sort((a, b) => a - b);
    return { median: sorted[Math.floor(sorted.length / 2)], max: sorted[sorted.length - 1] };
  };
  const timed = (n, fn) => {
    const times = [];
    for (let i = 0; i < n; i += 1) {
      const t0 = performance.now();
      fn(i);
      times.push(performance.now() - t0);
    }
    return stats(times);
  };

  // What a page pays once: the first init from the URL (fetch, compile, instantiate), then compile and
  // instantiate again from bytes, as often as asked.
  let t0 = performance.now();
  await core.init('/dist/formgen_core.wasm');
  const firstInit = performance.now() - t0;
  const compiles = [];
  const instances = [];
  for (let i = 0; i < Math.min(runs, 10); i += 1) {
    t0 = performance.now();
    const module = await WebAssembly.compile(bytes);
    compiles.push(performance.now() - t0);
    t0 = performance.now();
    await WebAssembly.instantiate(module, {});
    instances.push(performance.now() - t0);
  }
  const results = { firstInit, compile: stats(compiles), instantiate: stats(instances), rows: [] };

  for (const c of cases) {
    if (c.kind === 'outline') {
      results.rows.push({ ...c.label, ...timed(Math.max(3, Math.floor(runs / 5)), () => core.outline({ processXml: c.xml })) });
      continue;
    }

    // The step's form as the builtin drafts it, then checked as the author edits it: each run changes a
    // label, as a keystroke does.
    const form = core.draft({ processXml: c.xml, elementId: c.elementId }).schema;
    const n = c.kind === 'typing' ? runs : Math.max(3, Math.floor(runs / 5));
    results.rows.push({ ...c.label, fields: form.components.length, ...timed(n, (i) => {
      form.components[form.components.length - 1].label = `Label ${i}`;
      core.check({ processXml: c.xml, elementId: c.elementId, form });
    }) });
  }
  return results;
}

const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
const ms = (n) => `${n.toFixed(1)} ms`;

async function main() {
  if (!existsSync(WASM)) throw new Error(`no ${WASM}: run npm run build (or node packages/core/build.mjs) first`);
  const raw = readFileSync(WASM);
  const vacation = readFileSync(join(FIXTURES, 'bpmn', 'vacation.bpmn'), 'utf8');
  const large = processOfSize(200 * 1024);
  const huge = processOfSize(1024 * 1024);
  const middle = (p) => `Task_${Math.ceil(p.steps / 2)}`;
  const corpus = largestInCorpus();
  const cases = [
    { kind: 'typing', xml: vacation, elementId: 'Task_approve', label: { what: 'check while typing: a typical step', process: `vacation.bpmn (${kib(vacation.length)})`, step: 'Task_approve' } },
    { kind: 'check', xml: large.xml, elementId: middle(large), label: { what: 'check: a step of a large process', process: `generated, ${large.steps} steps (${kib(large.xml.length)})`, step: middle(large) } },
    { kind: 'check', xml: huge.xml, elementId: middle(huge), label: { what: 'check: a step of a ~1 MB process', process: `generated, ${huge.steps} steps (${kib(huge.xml.length)})`, step: middle(huge) } },
    { kind: 'outline', xml: huge.xml, label: { what: 'outline: a ~1 MB process', process: `generated, ${huge.steps} steps (${kib(huge.xml.length)})`, step: '' } },
    ...(corpus ? [ { kind: 'outline', xml: corpus.xml, label: { what: 'outline: the corpus\'s largest BPMN', process: `${corpus.name} (${kib(corpus.xml.length)})`, step: '' } } ] : []),
  ];

  const page = '<!doctype html><meta charset="utf-8"><title>formgen core bench</title>';
  const server = await serveStatic(CORE, { files: { '/bench.html': page } });
  const profile = mkdtempSync(join(tmpdir(), 'formgen-bench-'));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM, headless: true, args: [ '--headless', '--no-sandbox', '--disable-gpu' ],
  });
  try {
    const tab = browser.pages()[0] || await browser.newPage();
    await tab.goto(`${server.url}/bench.html`);
    const version = browser.browser() ? browser.browser().version() : (await tab.evaluate(() => navigator.userAgent));
    const r = await tab.evaluate(measure, { cases, runs: RUNS });

    console.log(`formgen's core in ${version} (headless), ${RUNS} runs per call\n`);
    const table = [
      [ 'what', 'input', 'median', 'slowest' ],
      [ '.wasm size raw', 'packages/core/dist/formgen_core.wasm', kib(raw.length), '' ],
      [ '.wasm size gzip (level 9)', '', kib(gzipSync(raw, { level: 9 }).length), '' ],
      [ 'first init from its URL', 'fetch + compile + instantiate', ms(r.firstInit), '' ],
      [ 'compile', 'WebAssembly.compile(bytes)', ms(r.compile.median), ms(r.compile.max) ],
      [ 'instantiate', 'WebAssembly.instantiate(module)', ms(r.instantiate.median), ms(r.instantiate.max) ],
      ...r.rows.map((row) => [ row.what, `${row.process}${row.step ? `, ${row.step}` : ''}${row.fields ? `, ${row.fields} fields` : ''}`,
        ms(row.median), ms(row.max) ]),
    ];
    const widths = table[0].map((_, i) => Math.max(...table.map((line) => line[i].length)));
    for (const [ i, line ] of table.entries()) {
      console.log(line.map((cell, j) => (j >= 2 ? cell.padStart(widths[j]) : cell.padEnd(widths[j]))).join('  '));
      if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
    }
    const typing = r.rows[0];
    const verdict = typing.max < TYPING_BUDGET_MS ? 'within' : typing.median < TYPING_BUDGET_MS ? 'within (median), over (slowest)' : 'OVER';
    console.log(`\nA check while typing on a typical step: ${verdict} the ${TYPING_BUDGET_MS} ms budget.`);
    process.exitCode = typing.median < TYPING_BUDGET_MS ? 0 : 1;
  } finally {
    await browser.close();
    await server.stop();
    rmSync(profile, { recursive: true, force: true });
  }
}

await main();
