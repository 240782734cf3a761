/**
 * A day typed in a filter (YYYY-MM-DD, UTC) as Unix seconds: its start, or the start of the next
 * day for an inclusive "to". Anything else is passed on as typed, so the API names the field.
 */
export function dayToSeconds(day: string | undefined, endOfDay: boolean): number | undefined {
  if (day === undefined) return undefined;
  const start = Date.parse(`${day}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(start)) return day as unknown as number;
  return start / 1000 + (endOfDay ? 86_400 : 0);
}
