/** Unix seconds as a UTC date and time, the same for every operator whatever their zone. */
export function dateTime(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return '—';
  return `${new Date(seconds * 1000).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** A long hex or CID value shortened for a table cell (the full value is its title). */
export function short(value: string, keep = 10): string {
  return value.length <= keep * 2 + 1 ? value : `${value.slice(0, keep)}…${value.slice(-6)}`;
}

/** A query string of the given filters and cursor (empty values left out). */
export function queryOf(values: Readonly<Record<string, string | undefined>>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) if (value) query.set(name, value);
  return query.size === 0 ? '' : `?${query}`;
}
