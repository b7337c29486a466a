// Runs the mock model server from a shell, for end-to-end runs of the CLI:
//
//   npx tsx test/mock/serve.ts --port 8787 --script replies.json [--log requests.jsonl]
//   trajaudit audit case.json --provider openai --model mock --base-url http://127.0.0.1:8787/v1
//
// The script file is JSON: an array of replies (a queue), or
//   { "routes": [{ "match": { "systemIncludes": "branch A" }, "replies": [ … ], "cycle": true }],
//     "replies": [ … ], "default": { "text": "{}" } }
// where a reply is { "text": "…", "usage": {…}, "delayMs": 0, "fault": { "type": "status", "status": 429 } }
// (see MockReply / MockScriptFile in mockModelServer.ts). Without --script every
// request gets --default-text (default "{}").
//
// Prints "MOCK_URL=http://127.0.0.1:PORT" on stdout once listening; one line per
// request on stderr unless --quiet. Stops on SIGINT/SIGTERM.

import { appendFileSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { scriptFromJson, startMockModelServer, type MockReply, type MockScriptFile } from './mockModelServer';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '0' },
      host: { type: 'string', default: '127.0.0.1' },
      script: { type: 'string' },
      'default-text': { type: 'string', default: '{}' },
      'api-key': { type: 'string' },
      log: { type: 'string' },
      'cache-min-tokens': { type: 'string' },
      quiet: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(
      'usage: tsx test/mock/serve.ts [--port N] [--host H] [--script file.json] [--default-text T] [--api-key K] [--log file.jsonl] [--cache-min-tokens N] [--quiet]\n',
    );
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port: not a port: ${values.port}`);
  let script: MockReply[] | MockScriptFile | undefined;
  if (values.script) script = JSON.parse(readFileSync(values.script, 'utf8')) as MockReply[] | MockScriptFile;

  const server = await startMockModelServer({
    port,
    host: values.host,
    script: script ? scriptFromJson(script) : undefined,
    defaultReply: { text: values['default-text'] },
    apiKey: values['api-key'],
    cacheMinTokens: values['cache-min-tokens'] !== undefined ? Number(values['cache-min-tokens']) : undefined,
  });

  const logged = new Set<number>();
  const flush = () => {
    for (const r of server.requests) {
      if (r.endedAt === undefined || logged.has(r.seq)) continue;
      logged.add(r.seq);
      if (!values.quiet) {
        process.stderr.write(
          `#${r.seq} ${r.method} ${r.path} ${r.protocol} model=${r.model} -> ${r.status ?? '-'} ${r.outcome}${r.fault ? ` (${r.fault})` : ''} ${Math.round(r.endedAt - r.startedAt)} ms\n`,
        );
      }
      if (values.log) appendFileSync(values.log, `${JSON.stringify({ ...r, rawBody: undefined })}\n`);
    }
  };
  const timer = setInterval(flush, 50);

  process.stdout.write(`MOCK_URL=${server.url}\n`);
  const stop = () => {
    clearInterval(timer);
    void server.close().then(() => {
      flush();
      process.exit(0);
    });
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`mock server: ${(error as Error).message}\n`);
  process.exit(1);
});
