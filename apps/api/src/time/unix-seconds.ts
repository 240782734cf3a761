/** The API's time format: whole seconds since the Unix epoch. */
export function unixSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}
