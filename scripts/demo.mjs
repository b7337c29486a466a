#!/usr/bin/env node
// `npm run demo`: the product on samples/. Builds the extension, packs its VSIX, installs it
// into a real VS Code (code-server) on 127.0.0.1 with the samples/ workspace, runs the CLI on
// the samples, and prints the URL; Ctrl+C stops the server.
// `npm run demo -- --check`: the same on a copy of samples/, checked: the CLI's commands succeed,
// the VSIX installs, and the server answers with the workbench for the samples folder; exits 0
// only if all of it worked. What a user then does in that workbench with the installed VSIX
// (open a sample, audit it offline and score a run folder from the palette, each webview bundle)
// is the workbench tests tagged @vsix, which npm test runs right after against this VSIX
// (project workbench-vsix): the same install, not a second browser session here.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { setupVscode } from './setup-vscode.mjs';
import { installExtension, makeSandbox, repoRoot, samplesDir, startCodeServer } from '../test/runners/code-server.mjs';

const check = process.argv.includes('--check');
const log = (m) => process.stderr.write(`[demo] ${m}\n`);
const run = (cmd, args) => execFileSync(cmd, args, { cwd: repoRoot, stdio: ['ignore', check ? 'ignore' : 'inherit', 'inherit'] });

if (!existsSync(join(repoRoot, 'node_modules'))) execFileSync('npm', ['ci'], { cwd: repoRoot, stdio: 'inherit' });
log('building and packing the VSIX');
// Under npm test (--check) the build stage has just type-checked, linted and format-checked the tree.
run('node', ['esbuild.mjs', '--production', ...(check ? ['--no-check'] : [])]);
mkdirSync(join(repoRoot, 'out'), { recursive: true });
const vsix = join(repoRoot, 'out', 'trajaudit.vsix');
// vsce lists every file under the folder it packs and matches each one against .vscodeignore; in
// the repository that is some 18,000 files, two thirds of them code-server's in .vscode-test/, and
// took 38 s of a loaded demo --check. It packs a copy without the tool and output folders, which
// .vscodeignore (an allow-list of product files) excludes anyway: the same VSIX.
const packFolder = mkdtempSync(join(tmpdir(), 'trajaudit-pack-'));
const NOT_PACKED = new Set(['.git', '.vscode-test', 'node_modules', 'out', 'test-artifacts']);
try {
  cpSync(repoRoot, packFolder, { recursive: true, filter: (src) => !NOT_PACKED.has(relative(repoRoot, src)) });
  execFileSync(join(repoRoot, 'node_modules', '.bin', 'vsce'), ['package', '--no-dependencies', '--out', vsix], {
    cwd: packFolder,
    stdio: ['ignore', check ? 'ignore' : 'inherit', 'inherit'],
  });
} finally {
  rmSync(packFolder, { recursive: true, force: true });
}

log('the CLI on samples/');
const cli = join(repoRoot, 'dist', 'cli.js');
const trajectories = readdirSync(join(samplesDir, 'trajectories'), { recursive: true })
  .map(String)
  .filter((p) => /\.traj\.jsonl?$/.test(p))
  .sort();
const cliInspects = [];
for (const file of trajectories.slice(0, 2)) {
  const path = join(samplesDir, 'trajectories', file);
  process.stdout.write(`\n$ trajaudit inspect ${relative(repoRoot, path)}\n`);
  cliInspects.push([`inspect ${file}`, spawnSync(process.execPath, [cli, 'inspect', path], { stdio: 'inherit' })]);
}
process.stdout.write('\n$ trajaudit score samples/runs/audit-gold-pred\n');
const cliScore = spawnSync(process.execPath, [cli, 'score', join(samplesDir, 'runs', 'audit-gold-pred')], { stdio: 'inherit' });

const tools = setupVscode();
const sandbox = makeSandbox('trajaudit-demo-');
installExtension({ ...tools, ...sandbox, extension: vsix });
// The check works on a copy, so the audit and any saved annotation never touch samples/.
const workspace = check ? join(mkdtempSync(join(tmpdir(), 'trajaudit-demo-ws-')), 'samples') : samplesDir;
if (check) cpSync(samplesDir, workspace, { recursive: true, filter: (src) => !src.includes('.scratch') });
const server = await startCodeServer({ ...tools, ...sandbox, workspace });

if (!check) {
  const url = `${server.origin}/?folder=${encodeURIComponent(samplesDir)}`;
  process.stdout.write(`\nTrajectory Auditor is running in VS Code at ${url}\nOpen a file under samples/trajectories to see the timeline. Ctrl+C stops.\n`);
  const stop = async () => {
    await server.stop();
    sandbox.cleanup();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  await server.exited;
} else {
  const results = [];
  const step = async (name, fn) => {
    const started = Date.now();
    try {
      await fn();
      results.push({ name, ok: true });
      log(`ok   ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    } catch (error) {
      results.push({ name, ok: false });
      log(`FAIL ${name}: ${error.message.split('\n')[0]}`);
    }
  };
  try {
    await step('the cli inspects two sample trajectories and scores a sample run folder', async () => {
      const failed = [...cliInspects, ['score', cliScore]].filter(([, r]) => r.status !== 0).map(([what, r]) => `${what} exited ${r.status}`);
      if (failed.length) throw new Error(failed.join('; '));
    });
    await step('code-server serves the workbench for the samples folder with the installed VSIX', async () => {
      const response = await fetch(`${server.origin}/?folder=${encodeURIComponent(workspace)}`);
      const body = await response.text();
      if (response.status !== 200 || !body.includes('workbench')) throw new Error(`GET / answered ${response.status}: ${body.slice(0, 200)}`);
      const { publisher, name, version } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
      const folder = `${publisher}.${name}-${version}`;
      if (!readdirSync(sandbox.extensionsDir).includes(folder)) throw new Error(`no ${folder} in the extensions folder after --install-extension`);
    });
  } finally {
    await server.stop();
    sandbox.cleanup();
    rmSync(join(workspace, '..'), { recursive: true, force: true });
  }
  const failed = results.filter((r) => !r.ok);
  process.stdout.write(`\ndemo --check: ${results.length - failed.length}/${results.length} passed\n`);
  process.exit(failed.length ? 1 : 0);
}
