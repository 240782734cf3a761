#!/usr/bin/env node
import { runCli, runsCommand } from './run-cli.ts';

const argv = process.argv.slice(2);
// Help and version need no configuration: the environment (and its schema) loads for commands.
const env = runsCommand(argv)
  ? (await import('./environment.ts')).loadCliEnvironment(process.cwd(), process.env).env
  : process.env;
process.exitCode = await runCli(argv, {
  env,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  stderrIsTty: process.stderr.isTTY,
});
