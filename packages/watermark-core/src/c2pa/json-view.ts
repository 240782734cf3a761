// Narrow, total readers for c2pa-node's JSON: its TypeScript types come from a package it lists
// only as a dev dependency, so the store arrives untyped and every field is checked here.

export type JsonRecord = Readonly<Record<string, unknown>>;

export function asRecord(value: unknown): JsonRecord | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as JsonRecord)
    : undefined;
}

export function asArray(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}
