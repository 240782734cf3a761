#!/usr/bin/env node
import { loadCliEnvironment } from './environment.ts';
import { runCli } from './run-cli.ts';

const { env } = loadCliEnvironment(process.cwd(), process.env);
process.exitCode = await runCli(process.argv.slice(2), {
  env,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  stderrIsTty: process.stderr.isTTY,
});
