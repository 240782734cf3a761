/** The smallest "round" number (1, 2 or 5 times a power of ten) at or above `value`; 1 for 0. */
export function niceCeiling(value: number): number {
  if (!(value > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}

/** Milliseconds in the unit a reader expects: 850 ms, 1.2 s, 3.5 min. */
export function duration(ms: number | null): string {
  if (ms === null) return '—';
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  return `${(ms / 60_000).toFixed(1)} min`;
}

/** Seconds of waiting: 0 s, 45 s, 100 s, 12 min, 3.0 h. */
export function age(seconds: number): string {
  // Up to two minutes in seconds: an axis topped at 100 s reads better than at "2 min".
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 3_600) return `${Math.round(seconds / 60)} min`;
  return `${(seconds / 3_600).toFixed(1)} h`;
}

/** Bytes in binary units: 512 B, 1.5 KiB, 20.0 MiB, 10.0 GiB. */
export function bytes(count: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = count;
  let unit = 0;
  while (value >= 1_024 && unit < units.length - 1) {
    value /= 1_024;
    unit++;
  }
  return unit === 0 ? `${value} ${units[0]}` : `${value.toFixed(1)} ${units[unit]}`;
}

/** A share as a percentage: 0 %, 2.5 %, 33 %. */
export function percent(share: number): string {
  const value = share * 100;
  return `${value < 10 && value > 0 ? value.toFixed(1) : Math.round(value)} %`;
}
