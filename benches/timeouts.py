#!/usr/bin/env python3
"""What a request answered at its bound costs after its answer: `formgen serve` with `process_seconds = 1`
and `concurrent_generations = 1` is sent eight builtin generations, one after another, of a process whose
one condition reads 300,000 names (5.8 MB); each is answered 503 `process_timeout`. Then the server's CPU
seconds over the next 20 s (from /proc) and its peak resident memory are printed: work that ends with
its answer costs nothing after it.

    python3 benches/timeouts.py target/debug/formgen [BASELINE_BINARY]

A second binary (a build of another revision) is measured the same way in the same run.
"""
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request


def process(terms):
    condition = ' or '.join(f'x{i} = {i}' for i in range(terms))
    return (
        '<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" '
        'xmlns:zeebe="http://camunda.org/schema/zeebe/1.0" id="D"><process id="P">'
        '<startEvent id="S"/><userTask id="T"><extensionElements><zeebe:formDefinition formId="f"/>'
        '</extensionElements></userTask><sequenceFlow id="s0" sourceRef="S" targetRef="T"/>'
        '<exclusiveGateway id="G" default="d"/><sequenceFlow id="a" sourceRef="T" targetRef="G"/>'
        f'<endEvent id="E"/><sequenceFlow id="c" sourceRef="G" targetRef="E"><conditionExpression>= {condition}'
        '</conditionExpression></sequenceFlow><sequenceFlow id="d" sourceRef="G" targetRef="E"/>'
        '</process></definitions>'
    )


def measure(binary, port, body, folder):
    config = os.path.join(folder, 'formgen.toml')
    with open(config, 'w') as f:
        f.write(f'[server]\nlisten = "127.0.0.1:{port}"\n[limits]\nprocess_seconds = 1\nconcurrent_generations = 1\n'
                '[[workers]]\nname = "builtin"\nprovider = "builtin"\n')
    env = dict(os.environ, FORMGEN_CONFIG=config, RUST_LOG='error')
    server = subprocess.Popen([binary, 'serve'], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(f'http://127.0.0.1:{port}/healthz', timeout=1)
                break
            except OSError:
                time.sleep(0.1)

        def cpu():
            fields = open(f'/proc/{server.pid}/stat').read().split(')')[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf('SC_CLK_TCK')

        answers = []
        for _ in range(8):
            request = urllib.request.Request(f'http://127.0.0.1:{port}/api/formgen/generate', data=body,
                                             headers={'content-type': 'application/json'})
            start = time.time()
            try:
                code = f'{urllib.request.urlopen(request, timeout=120).status}'
            except urllib.error.HTTPError as e:
                code = f'{e.code} {json.loads(e.read() or b"{}").get("code")}'
            answers.append(f'{code} in {time.time() - start:.2f} s')
        answered = cpu()
        time.sleep(20)
        after = cpu() - answered
        peak = next(int(l.split()[1]) // 1024 for l in open(f'/proc/{server.pid}/status') if l.startswith('VmHWM'))
        print(f'{binary}\n  answers: {", ".join(answers)}\n  CPU until the last answer {answered:.2f} s, '
              f'in the 20 s after it {after:.2f} s; peak resident {peak} MB')
    finally:
        server.terminate()
        server.wait()


def main():
    body = json.dumps({'processXml': process(300_000), 'elementId': 'T', 'worker': 'builtin'}).encode()
    with tempfile.TemporaryDirectory() as folder:
        for i, binary in enumerate(sys.argv[1:]):
            measure(binary, 18430 + i, body, folder)


main()
