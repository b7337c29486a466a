// Typed access to the code-server runner (test/runners/code-server.mjs) and the tools installer
// (scripts/setup-vscode.mjs). Both are ES modules shared with the integration runner, the demo and
// the editor benchmark; this package is CommonJS, so they load through import() of their URL.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export const repoRoot = join(__dirname, '..', '..', '..');

export interface VscodeTools {
  node24: string;
  codeServerBin: string;
  chromiumPath: string;
}

export interface Sandbox {
  root: string;
  userDataDir: string;
  extensionsDir: string;
  xdgDir: string;
  configFile: string;
  cleanup(): void;
}

export interface CodeServer {
  port: number;
  origin: string;
  stop(): Promise<void>;
  output(): string;
}

interface CodeServerModule {
  makeSandbox(prefix?: string): Sandbox;
  writeUserSettings(userDataDir: string, settings?: Record<string, unknown>): string;
  installExtension(options: VscodeTools & Sandbox & { extension: string }): string;
  startCodeServer(options: VscodeTools & Sandbox & { workspace: string; logFile?: string }): Promise<CodeServer>;
  workbenchUrl(options: { port: number; folder?: string; payload?: [string, string][] }): string;
  testRunPayload(options: { port: number; extensionDevelopmentPath?: string }): [string, string][];
}

interface SetupModule {
  setupVscode(): VscodeTools;
}

const load = async <T>(relativePath: string): Promise<T> => (await import(pathToFileURL(join(repoRoot, relativePath)).href)) as T;

export const codeServerModule = (): Promise<CodeServerModule> => load<CodeServerModule>('test/runners/code-server.mjs');
export const setupModule = (): Promise<SetupModule> => load<SetupModule>('scripts/setup-vscode.mjs');
