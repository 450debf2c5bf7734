// What formgen's core costs in the browser, measured in headless Chromium (playwright-core): the .wasm's
// size (raw and gzip), the time to compile and instantiate it, the check of a typical step (what the
// form-js module runs after each edit; it must stay under 50 ms), the check of a step in large processes,
// and the outline of a ~1 MB process, each beside the same check or outline by the formgen CLI in the
// same run (its process start included). Prints a table.
//   node tests/bench.mjs            (after npm run build: it reads packages/core/dist/formgen_core.wasm)
//   CHROMIUM   the browser (default /usr/bin/chromium)
//   RUNS       repetitions of each timed call (default 30; the median and the slowest are printed)
//   FORMGEN_BIN  the CLI (default target/release/formgen, else target/debug/formgen)
//   FORMGEN_SHARED  the corpus (default ../shared beside the checkout; used when it is there)
// The processes: fixtures/bpmn/vacation.bpmn (typical), one generated here (~200 KB and ~1 MB: a chain of
// user tasks with their forms' outputs, gateways and scripts reading them), and, with the corpus, the first
// step of corpus/pairs with its author's form and the corpus's largest BPMN.
import { spawnSync } from 'node:child_process';
import { chromium } from 'playwright-core';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
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
const REPO = resolve(WEB, '..');
const CORPUS = join(process.env.FORMGEN_SHARED || resolve(REPO, '..', 'shared'), 'corpus');
const CLI = process.env.FORMGEN_BIN ||
  [ 'release', 'debug' ].map((p) => join(REPO, 'target', p, 'formgen')).find((p) => existsSync(p));
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

/**
 * The corpus's largest BPMN file, when the corpus is there; with `step`, the largest whose first process
 * has a user task, and that task.
 */
function largestInCorpus(step = false) {
  const dir = join(CORPUS, 'bpmn');
  if (!existsSync(dir)) return null;
  const files = readdirSync(dir).filter((n) => n.endsWith('.bpmn')).map((n) => ({ n, size: statSync(join(dir, n)).size }));
  files.sort((a, b) => b.size - a.size);
  for (const { n } of files) {
    const xml = readFileSync(join(dir, n), 'utf8');
    const elementId = step ? firstUserTask(xml) : undefined;
    if (!step || elementId) return { name: `corpus/bpmn/${n}`, xml, elementId };
  }
  return null;
}

/** The first step of corpus/pairs with its author's form, when the corpus is there. */
function pairsStep() {
  const dir = join(CORPUS, 'pairs');
  if (!existsSync(join(dir, 'pairs.jsonl'))) return null;
  const pair = JSON.parse(readFileSync(join(dir, 'pairs.jsonl'), 'utf8').split('\n')[0]);
  return {
    name: pair.bpmn.replace(/^bpmn\//, ''),
    xml: readFileSync(join(dir, pair.bpmn), 'utf8'),
    elementId: pair.elementId,
    form: JSON.parse(readFileSync(join(dir, pair.form), 'utf8')),
  };
}

/** The first user task of the first process of a BPMN document (the process `check` takes by default). */
function firstUserTask(xml) {
  const start = xml.search(/<(?:\w+:)?process\b/);
  const end = xml.search(/<\/(?:\w+:)?process>/);
  if (start < 0 || end < start) return undefined;
  return /<(?:\w+:)?userTask\b[^>]*\bid="([^"]+)"/.exec(xml.slice(start, end))?.[1];
}

/**
 * The CLI on the same input: `formgen check FORM --process BPMN --element ID --format json`, or
 * `formgen outline --json BPMN`, `runs` times, from its process start to its exit.
 */
function cliTimes(c, form, runs) {
  if (!CLI) return null;
  const dir = mkdtempSync(join(tmpdir(), 'formgen-bench-cli-'));
  try {
    const bpmn = join(dir, 'process.bpmn');
    writeFileSync(bpmn, c.xml);
    let args = [ 'outline', '--json', bpmn ];
    if (c.kind !== 'outline') {
      const file = join(dir, 'form.form');
      writeFileSync(file, JSON.stringify(form, null, 2));
      args = [ 'check', file, '--process', bpmn, '--element', c.elementId, '--project', dir, '--format', 'json' ];
    }
    const env = { ...process.env };
    delete env.FORMGEN_CONFIG; // the embedded default configuration, as the core has
    const times = [];
    for (let i = 0; i < runs; i += 1) {
      const t0 = performance.now();
      const run = spawnSync(CLI, args, { stdio: [ 'ignore', 'ignore', 'pipe' ], env });
      times.push(performance.now() - t0);
      if (run.error) throw run.error;

      // 1 is a check that found an error; anything else is a run that did not do the work
      if (run.status !== 0 && run.status !== 1) throw new Error(`${CLI} ${args.join(' ')}: ${run.stderr}`);
    }
    times.sort((a, b) => a - b);
    return { median: times[Math.floor(times.length / 2)], max: times[times.length - 1] };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
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
    const form = c.form ? structuredClone(c.form) : core.draft({ processXml: c.xml, elementId: c.elementId }).schema;
    const n = c.kind === 'typing' ? runs : Math.max(3, Math.floor(runs / 5));
    results.rows.push({ ...c.label, form, fields: form.components.length, ...timed(n, (i) => {
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
  const pair = pairsStep();
  const corpusStep = largestInCorpus(true);
  const cases = [
    { kind: 'typing', xml: vacation, elementId: 'Task_approve', label: { what: 'check while typing: a typical step', process: `vacation.bpmn (${kib(vacation.length)})`, step: 'Task_approve' } },
    ...(pair ? [ { kind: 'typing', xml: pair.xml, elementId: pair.elementId, form: pair.form, label: { what: 'check while typing: a pairs step, its author\'s form', process: `${pair.name} (${kib(pair.xml.length)})`, step: pair.elementId } } ] : []),
    ...(corpusStep ? [ { kind: 'check', xml: corpusStep.xml, elementId: corpusStep.elementId, label: { what: 'check: a step of the corpus\'s largest process with a user task', process: `${corpusStep.name} (${kib(corpusStep.xml.length)})`, step: corpusStep.elementId } } ] : []),
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
    const cliRuns = Math.max(3, Math.floor(RUNS / 5));
    const table = [
      [ 'what', 'input', 'median', 'slowest', 'CLI median' ],
      [ '.wasm size raw', 'packages/core/dist/formgen_core.wasm', kib(raw.length), '', '' ],
      [ '.wasm size gzip (level 9)', '', kib(gzipSync(raw, { level: 9 }).length), '', '' ],
      [ 'first init from its URL', 'fetch + compile + instantiate', ms(r.firstInit), '', '' ],
      [ 'compile', 'WebAssembly.compile(bytes)', ms(r.compile.median), ms(r.compile.max), '' ],
      [ 'instantiate', 'WebAssembly.instantiate(module)', ms(r.instantiate.median), ms(r.instantiate.max), '' ],
      ...r.rows.map((row, i) => {
        const cli = cliTimes(cases[i], row.form, cliRuns);
        return [ row.what, `${row.process}${row.step ? `, ${row.step}` : ''}${row.fields ? `, ${row.fields} fields` : ''}`,
          ms(row.median), ms(row.max), cli ? ms(cli.median) : 'no CLI' ];
      }),
    ];
    const widths = table[0].map((_, i) => Math.max(...table.map((line) => line[i].length)));
    for (const [ i, line ] of table.entries()) {
      console.log(line.map((cell, j) => (j >= 2 ? cell.padStart(widths[j]) : cell.padEnd(widths[j]))).join('  '));
      if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
    }
    console.log(`\nThe CLI column: ${CLI ?? 'no formgen binary'} on the same input, from its start to its exit.`);
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
