#!/usr/bin/env node
// `npm run demo`: the product on samples/. Builds the extension, packs its VSIX, installs it
// into a real VS Code (code-server) on 127.0.0.1 with the samples/ workspace, runs the CLI
// on the samples, and prints the URL. Ctrl+C stops the server.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { setupVscode } from './setup-vscode.mjs';
import { installExtension, makeSandbox, repoRoot, samplesDir, startCodeServer } from '../test/runners/code-server.mjs';

const log = (m) => process.stderr.write(`[demo] ${m}\n`);
const run = (cmd, args) => execFileSync(cmd, args, { cwd: repoRoot, stdio: 'inherit' });

if (!existsSync(join(repoRoot, 'node_modules'))) run('npm', ['ci']);
log('building');
run('npm', ['run', 'build']);
log('packing the VSIX');
mkdirSync(join(repoRoot, 'out'), { recursive: true });
const vsix = join(repoRoot, 'out', 'trajaudit.vsix');
run('npx', ['vsce', 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--out', vsix]);

log('the CLI on samples/');
const cli = join(repoRoot, 'dist', 'cli.js');
const trajectories = readdirSync(join(samplesDir, 'trajectories'), { recursive: true })
  .map(String).filter((p) => /\.(json|jsonl)$/.test(p) && !p.endsWith('.audit.json')).sort();
for (const file of trajectories.slice(0, 3)) {
  const path = join(samplesDir, 'trajectories', file);
  process.stdout.write(`\n$ trajaudit inspect ${relative(repoRoot, path)}\n`);
  spawnSync(process.execPath, [cli, 'inspect', path], { stdio: 'inherit' });
}
process.stdout.write(`\n$ trajaudit validate samples\n`);
spawnSync(process.execPath, [cli, 'validate', samplesDir], { stdio: 'inherit' });

const tools = setupVscode();
const sandbox = makeSandbox('trajaudit-demo-');
installExtension({ ...tools, ...sandbox, extension: vsix });
const server = await startCodeServer({ ...tools, ...sandbox, workspace: samplesDir });
const url = `${server.origin}/?folder=${encodeURIComponent(samplesDir)}`;
process.stdout.write(`\nTrajectory Auditor is running in VS Code at ${url}\nOpen a file under samples/trajectories to see the timeline. Ctrl+C stops.\n`);
const stop = async () => {
  await server.stop();
  sandbox.cleanup?.();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
await server.exited;
