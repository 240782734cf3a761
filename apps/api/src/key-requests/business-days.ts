const DAY_MS = 86_400_000;

/**
 * `days` business days after `from` (UTC; Saturdays and Sundays skipped, no holidays): the operators
 * owe an answer to a key request within two business days. A request made on a weekend
 * counts from the Monday.
 */
export function addBusinessDays(from: Date, days: number): Date {
  let at = from.getTime();
  let left = days;
  while (left > 0) {
    at += DAY_MS;
    const weekday = new Date(at).getUTCDay();
    if (weekday !== 0 && weekday !== 6) left -= 1;
  }
  return new Date(at);
}
