// Builds formgen's core for the browser: the formgen-wasm crate for wasm32-unknown-unknown (the `wasm`
// profile: small before fast), copied to dist/formgen_core.wasm. Needs cargo and the target
// (`rustup target add wasm32-unknown-unknown`).
import { execFileSync } from 'node:child_process';
import { copyFile, mkdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..', '..');
const target = process.env.CARGO_TARGET_DIR || join(repo, 'target');

execFileSync('cargo', [
  'build', '--locked', '-p', 'formgen-wasm', '--profile', 'wasm', '--target', 'wasm32-unknown-unknown'
], { cwd: repo, stdio: 'inherit' });

await mkdir(join(here, 'dist'), { recursive: true });
const built = join(target, 'wasm32-unknown-unknown', 'wasm', 'formgen_wasm.wasm');
const out = join(here, 'dist', 'formgen_core.wasm');
await copyFile(built, out);
console.log(`packages/core/dist/formgen_core.wasm ${((await stat(out)).size / 1024).toFixed(1).padStart(8)} KiB`);
