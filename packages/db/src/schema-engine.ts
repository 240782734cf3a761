// Prisma's schema engine (the part behind `prisma migrate`) compiled to WebAssembly. The CLI's
// native engine is a separate download from binaries.prisma.sh; this one ships inside an npm
// package, so migrations work wherever `pnpm install` did.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';
import * as bindings from '@prisma/schema-engine-wasm/schema_engine_bg';
import { DatabaseUnreachableError } from './database-unreachable-error.ts';
import { serverAddressOf } from './database-url.ts';
import { createMigrationAdapterFactory } from './migration-adapter.ts';

export type SchemaEngine = bindings.SchemaEngine;

// TypeScript declares WebAssembly only in the DOM lib, which this Node package does not load;
// these are the two members used here.
type WasmImports = Record<string, Record<string, unknown>>;
interface WasmRuntime {
  instantiate(
    bytes: Uint8Array,
    imports: WasmImports,
  ): Promise<{ instance: { exports: Record<string, unknown> } }>;
}
const { WebAssembly: wasmRuntime } = globalThis as unknown as { WebAssembly: WasmRuntime };

let loaded: Promise<void> | undefined;

/**
 * The package's entry module imports the .wasm file as an ES module, which Node only supports
 * experimentally (a warning on 24, a flag on 22) and bundlers handle each their own way.
 * Instantiating the bytes ourselves with the generated bindings works everywhere.
 */
function loadEngine(): Promise<void> {
  loaded ??= instantiate().catch((error: unknown) => {
    loaded = undefined;
    throw error;
  });
  return loaded;
}

/**
 * The engine arms a 10 s timer around its advisory lock (`pg_advisory_lock(72707369)`) and never
 * clears it, so every `applyMigrations` would keep a short-lived process (`pnpm db:migrate`, a
 * test run) alive for 10 s after the work is done. Unref'd timers still fire in a running
 * process but no longer hold it open.
 */
function withUnrefTimers(module: typeof bindings): Record<string, unknown> {
  const imports: Record<string, unknown> = { ...module };
  for (const name of Object.keys(imports)) {
    if (name.startsWith('__wbg_setTimeout_')) {
      imports[name] = (callback: () => void, ms: number) => setTimeout(callback, ms >>> 0).unref();
    }
  }
  return imports;
}

async function instantiate(): Promise<void> {
  const require = createRequire(import.meta.url);
  const bindingsPath = require.resolve('@prisma/schema-engine-wasm/schema_engine_bg');
  const bytes = await readFile(join(dirname(bindingsPath), 'schema_engine_bg.wasm'));
  const { instance } = await wasmRuntime.instantiate(bytes, {
    './schema_engine_bg.js': withUnrefTimers(bindings),
  });
  bindings.__wbg_set_wasm(instance.exports);
  const start = instance.exports.__wbindgen_start;
  if (typeof start === 'function') start();
}

// The engine's connection check reports an unreachable server in its message, not as a code.
function isUnreachableEngineError(error: unknown): boolean {
  return (
    error instanceof Error &&
    /DatabaseNotReachable|Can't reach database server/i.test(error.message)
  );
}

export interface SchemaFile {
  path: string;
  content: string;
}

/**
 * Runs `work` with an engine connected to `databaseUrl`, then frees the engine and closes every
 * connection it opened (the engine never closes its adapter itself).
 */
export async function withSchemaEngine<T>(
  databaseUrl: string,
  schemaFiles: SchemaFile[],
  work: (engine: SchemaEngine) => Promise<T>,
): Promise<T> {
  await loadEngine();
  const factory = createMigrationAdapterFactory(databaseUrl);
  try {
    let engine: SchemaEngine;
    try {
      engine = await bindings.SchemaEngine.new(
        { datamodels: schemaFiles.map((file): [string, string] => [file.path, file.content]) },
        // The engine logs JSON lines at INFO; failures reach us as rejected promises instead.
        () => {},
        bindMigrationAwareSqlAdapterFactory(factory),
      );
    } catch (error) {
      if (isUnreachableEngineError(error)) {
        throw new DatabaseUnreachableError(serverAddressOf(databaseUrl), { cause: error });
      }
      throw error;
    }
    try {
      return await work(engine);
    } finally {
      engine.free();
    }
  } finally {
    await factory.close();
  }
}
